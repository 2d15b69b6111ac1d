// The control API answers only the local developer (S16): a foreign Host (DNS
// rebinding) or Origin gets 403, a control POST without the JSON type 415 (so
// no cross-origin "simple" request reaches it), and a refusal changes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, validatorFor } from './helpers/openapi.js';
import { rawRequest } from './helpers/raw-http.js';
import { type Sandbox, useServedSandbox } from './helpers/served-sandbox.js';

const served = useServedSandbox();
let sandbox: Sandbox;
let port: number;
beforeAll(() => {
  ({ sandbox, port } = served);
});
const sandboxDoc = validatorFor('sandbox');

/** On a socket, because fetch sets Host and Origin itself. */
async function send(method: string, path: string, headers: Record<string, string>, body = '') {
  const head = [`${method} ${path} HTTP/1.1`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  const answer = await rawRequest(port, head, body);
  return { status: answer.status, body: answer.body ? JSON.parse(answer.body) : undefined };
}
const local = () => ({ Host: `127.0.0.1:${port}` });
const json = { 'Content-Type': 'application/json' };
const verificationCount = () => sandbox.partner.listVerifications({ limit: 1 }).count;

describe('Host (DNS rebinding)', () => {
  it('answers the loopback names with the sandbox port, and refuses another name or port with 403 before reading or changing anything', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`])
      expect((await send('GET', '/_sandbox/credentials', { Host: host })).status, host).toBe(200);
    const foreign = ['127.0.0.1', `127.0.0.1:${port + 1}`, `localhost.attacker.example:${port}`, `10.0.0.7:${port}`];
    for (const host of [`attacker.example:${port}`, ...foreign]) {
      const res = await send('GET', '/_sandbox/credentials', { Host: host });
      expect(res.status, host).toBe(403);
      sandboxDoc.expectValid('Error', res.body);
      expect(res.body.message).toMatch(/answers only requests to localhost/);
      expect(JSON.stringify(res.body)).not.toContain(sandbox.accessToken);
    }
    sandbox.partner.seed();
    const before = verificationCount();
    const reset = await send('POST', '/_sandbox/reset', { Host: `rebind.attacker.example:${port}`, ...json });
    expect(reset.status).toBe(403);
    expect(verificationCount()).toBe(before);
  });

  it('guards every route: under a rebound name a page can neither rotate the key nor repoint webhookUrl', async () => {
    const foreign = { Host: `rebind.attacker.example:${port}` };
    const key = sandbox.partner.activeAuthKey();
    const rotate = await send('POST', '/auth-keys', { ...foreign, 'X-Auth-Key': key, ...json }, '{}');
    expect(rotate.status).toBe(403);
    expect(rotate.body.message).toMatch(/answers only requests to localhost/);
    expect(sandbox.partner.activeAuthKey()).toBe(key);
    const repoint = await send(
      'PUT',
      '/partners',
      { ...foreign, 'X-Auth-Key': key, ...json },
      JSON.stringify({ webhookUrl: 'https://attacker.example/hook' }),
    );
    expect(repoint.status).toBe(403);
    expect((await send('GET', '/partners', { ...local(), 'X-Auth-Key': key, ...json })).body.webhookUrl).not.toBe(
      'https://attacker.example/hook',
    );
    const bearer = { Authorization: `Bearer ${sandbox.accessToken}` };
    const v2 = await send('GET', '/v2/verifications/', { ...foreign, ...bearer });
    expect(v2.status).toBe(403);
    expect(JSON.stringify(v2.body)).not.toContain(sandbox.accessToken);
    expect((await send('GET', '/', foreign)).status).toBe(403);
    // This machine's names keep working.
    expect((await send('GET', '/partners', { ...local(), 'X-Auth-Key': key, ...json })).status).toBe(200);
    expect((await send('GET', '/v2/verifications/', { Host: `localhost:${port}`, ...bearer })).status).toBe(200);
  });
});

describe('addresses the sandbox sends a browser or a webhook to', () => {
  it('must be http:// or https://: a javascript: or data: URL is refused with 400 naming the field, and nothing changes', async () => {
    const key = sandbox.partner.activeAuthKey();
    const headers = { ...local(), 'X-Auth-Key': key, ...json };
    const create = (extra: object) =>
      send(
        'POST',
        '/verifications',
        headers,
        JSON.stringify({
          externalUserId: '3d8f1a52-6c47-4e09-b2a1-9f5e7c3b0d64',
          redirectUrl: 'https://partner.example.com/done',
          ...extra,
        }),
      );
    const before = verificationCount();
    for (const [field, value] of [
      ['redirectUrl', 'javascript:alert(document.domain)'],
      ['errorRedirectUrl', 'data:text/html,hello'],
    ]) {
      const res = await create({ [field]: value });
      expect(res.status, field).toBe(400);
      expect(res.body.message).toMatch(
        new RegExp(`^${field} must be an http:// or https:// address in the sandbox, not "`),
      );
    }
    expect(verificationCount()).toBe(before);
    const repoint = await send('PUT', '/partners', headers, JSON.stringify({ webhookUrl: 'javascript:alert(1)' }));
    expect(repoint.status).toBe(400);
    expect(repoint.body.message).toMatch(/^webhookUrl must be an http:\/\/ or https:\/\/ address/);
    expect((await create({ errorRedirectUrl: 'http://127.0.0.1:3000/kyc/error' })).status).toBe(201);
  });
});

describe('Origin', () => {
  it('refuses a web page elsewhere with 403 and answers local pages', async () => {
    for (const origin of ['https://attacker.example', 'null', 'http://127.0.0.1.attacker.example', 'file://']) {
      const res = await send('GET', '/_sandbox/clock', { ...local(), Origin: origin });
      expect(res.status, origin).toBe(403);
      expect(res.body.message).toContain(`Origin ${JSON.stringify(origin)}`);
    }
    for (const origin of ['http://localhost:3000', `http://127.0.0.1:${port}`, 'http://[::1]:5173']) {
      expect((await send('GET', '/_sandbox/clock', { ...local(), Origin: origin })).status, origin).toBe(200);
    }
  });

  it('refuses a cross-origin POST that carries the JSON type and changes nothing', async () => {
    sandbox.partner.seed();
    const before = verificationCount();
    const res = await send('POST', '/_sandbox/reset', { ...local(), Origin: 'https://attacker.example', ...json });
    expect(res.status).toBe(403);
    expect(verificationCount()).toBe(before);
  });
});

describe('Content-Type on control POSTs and PUTs', () => {
  it.each([
    ['no Content-Type and no body', {}, undefined],
    ['text/plain (a simple request)', { 'Content-Type': 'text/plain' }, '{}'],
    ['a form (a simple request)', { 'Content-Type': 'application/x-www-form-urlencoded' }, 'minutes=5'],
    ['multipart (a simple request)', { 'Content-Type': 'multipart/form-data; boundary=x' }, '--x--'],
  ] as const)('refuses %s with 415 and changes nothing', async (_name, headers, body) => {
    sandbox.partner.seed();
    const before = verificationCount();
    const reset = await send('POST', '/_sandbox/reset', { ...local(), ...headers }, body);
    expect(reset.status).toBe(415);
    sandboxDoc.expectValid('Error', reset.body);
    expect(reset.body.message).toMatch(/Content-Type: application\/json/);
    expect(verificationCount()).toBe(before);
    const clock = sandbox.clock.now().getTime();
    expect((await send('POST', '/_sandbox/clock/advance', { ...local(), ...headers }, body)).status).toBe(415);
    expect(sandbox.clock.now().getTime() - clock).toBeLessThan(60_000);
  });

  it('accepts the JSON type with or without a body where the operation takes none', async () => {
    expect((await send('POST', '/_sandbox/reset', { ...local(), ...json })).status).toBe(204);
    expect((await send('POST', '/_sandbox/seed', { ...local(), ...json }, '')).status).toBe(200);
    expect(
      (await send('POST', '/_sandbox/reset', { ...local(), 'Content-Type': 'application/json; charset=utf-8' }, '{}'))
        .status,
    ).toBe(204);
    // An operation that takes a body still requires it.
    const advance = await send('POST', '/_sandbox/clock/advance', { ...local(), ...json });
    expect(advance).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^body is required: .*\{\}/) },
    });
  });
});

describe('the documented control API', () => {
  it('declares 403 on every operation and 415 on every POST and PUT', () => {
    const doc = loadBundle('sandbox');
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        expect(op.responses['403'], `${method} ${path}`).toBeDefined();
        if (method !== 'get') expect(op.responses['415'], `${method} ${path}`).toBeDefined();
      }
    }
  });
});
