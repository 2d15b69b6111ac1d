// The partner document asks for `Content-Type: application/json` on every
// call, so the local sandbox refuses a partner call without it, GET and a
// POST without a body too, through the node:http door, the fetch handler
// and startSandbox; v2 and the control API, whose documents ask no such
// header, answer without it. The package's own partner client sends it on
// calls without a body.
import { describe, expect, it } from 'vitest';
import { createPartnerClient } from '../src/partner.js';
import { startSandbox } from '../src/sandbox/in-process.js';
import { validatorFor } from './helpers/openapi.js';
import { twoDoorsForFile, type Header } from './helpers/two-doors.js';

const AUTH_KEY = 'content-type-key';
const ACCESS_TOKEN = 'content-type-token';
const partnerDoc = validatorFor('partner');
const key: Header = ['X-Auth-Key', AUTH_KEY];
const DOCUMENTED = /Content-Type: application\/json/;

const opened = twoDoorsForFile(AUTH_KEY, ACCESS_TOKEN);

describe('a partner call without Content-Type: application/json, through both doors', () => {
  it.each([
    ['no Content-Type', []],
    ['text/plain', [['Content-Type', 'text/plain']]],
    ['an unparseable type', [['Content-Type', 'json']]],
  ] as [string, Header[]][])('GET with %s gets 400 naming the documented header', async (_, type) => {
    for (const answer of await opened.doors.send('GET', '/partners', [key, ...type])) {
      expect(answer.status).toBe(400);
      const body = JSON.parse(answer.body);
      partnerDoc.expectValid('Error', body);
      expect(body.message).toMatch(DOCUMENTED);
    }
  });

  it('GET with the type given twice gets 400 saying so, as a call with a body does', async () => {
    const json: Header = ['Content-Type', 'application/json'];
    for (const answer of await opened.doors.send('GET', '/partners', [key, json, json])) {
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).message).toMatch(/^Content-Type is given more than once/);
    }
  });

  it('HEAD without it gets 400, as GET does', async () => {
    for (const answer of await opened.doors.send('HEAD', '/verifications', [key])) expect(answer.status).toBe(400);
  });

  it('a POST without a body and without the type gets 400 and changes nothing', async () => {
    for (const answer of await opened.doors.send('POST', '/auth-keys', [key])) {
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).message).toMatch(DOCUMENTED);
    }
    expect(opened.doors.server.partner.activeAuthKey()).toBe(AUTH_KEY);
    expect(opened.doors.handler.authKey).toBe(AUTH_KEY);
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON'])(
    'GET with %s is answered',
    async (type) => {
      for (const answer of await opened.doors.send('GET', '/partners', [key, ['Content-Type', type]]))
        expect(answer.status).toBe(200);
    },
  );

  it('v2 and the control API answer a GET without it', async () => {
    const bearer: Header = ['Authorization', `Bearer ${ACCESS_TOKEN}`];
    for (const answer of await opened.doors.send('GET', '/v2/verifications/', [bearer]))
      expect(answer.status).toBe(200);
    for (const answer of await opened.doors.send('GET', '/_sandbox/credentials', [])) expect(answer.status).toBe(200);
  });
});

describe('startSandbox and the partner client', () => {
  it('startSandbox refuses a GET without it; createPartnerClient sends it on a GET', async () => {
    const sandbox = await startSandbox({ onDeliveryFailure: () => undefined });
    try {
      const bare = await fetch(`${sandbox.url}/partners`, { headers: { 'X-Auth-Key': sandbox.authKey } });
      expect(bare.status).toBe(400);
      expect((await bare.json()).message).toMatch(DOCUMENTED);
      const partner = createPartnerClient({ baseUrl: sandbox.url, authKey: sandbox.authKey });
      const { response } = await partner.GET('/partners');
      expect(response.status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});
