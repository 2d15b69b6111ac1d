// The sandbox's refusals say what to do: a 401 keeps the documented body and
// names the mistake in X-Sandbox-Reason; partner enum errors list the allowed
// values (as v2's details do); a body that is not JSON is refused with where.
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonMistake } from '../src/sandbox/http/json-position.js';
import { useServedSandbox } from './helpers/served-sandbox.js';

const KEY = 'sbx_reasons_key_0123456789';
const TOKEN = 'v2_reasons_token_0123456789';
const served = useServedSandbox({ authKey: KEY, accessToken: TOKEN });
const { call } = served;
// KEY is rotated away before the tests; CURRENT in a case stands for the key that replaced it.
let current: string;
beforeAll(async () => {
  const rotated = await call('POST', '/auth-keys', '{}');
  expect(rotated.status).toBe(201);
  current = rotated.body.authKeys.find((k: { active: boolean }) => k.active).key;
});

describe('a 401 says why in X-Sandbox-Reason, with the documented body', () => {
  const PARTNER: [string, Record<string, string>, RegExp][] = [
    ['no credential', {}, /^no X-Auth-Key header: the partner API takes the auth key in X-Auth-Key$/],
    ['an unknown key', { 'X-Auth-Key': 'sbx_typo' }, /^unknown X-Auth-Key: no key of this sandbox has this value/],
    [
      'a key rotated away',
      { 'X-Auth-Key': KEY },
      /^this X-Auth-Key was rotated away: POST \/auth-keys made it invalid; send the newest key$/,
    ],
    [
      'a bearer token',
      { Authorization: `Bearer ${TOKEN}` },
      /^a bearer token was sent to the partner API, which takes the auth key in the X-Auth-Key header$/,
    ],
    [
      'the v2 token as X-Auth-Key',
      { 'X-Auth-Key': TOKEN },
      /^X-Auth-Key holds the v2 access token; the partner API takes the auth key$/,
    ],
  ];
  const V2: [string, Record<string, string>, RegExp][] = [
    ['no credential', {}, /^no Authorization header: the v2 API takes Authorization: Bearer <access token>$/],
    [
      'an X-Auth-Key',
      { 'X-Auth-Key': 'CURRENT' },
      /^X-Auth-Key was sent to the v2 API, which takes Authorization: Bearer <access token>$/,
    ],
    [
      'an auth key as the bearer token',
      { Authorization: 'Bearer CURRENT' },
      /^the bearer token is a partner auth key; the v2 API takes the v2 access token$/,
    ],
    [
      'an unknown token',
      { Authorization: 'Bearer v2_typo' },
      /^unknown bearer token: not the access token of this sandbox/,
    ],
    ['another scheme', { Authorization: TOKEN }, /^Authorization is not "Bearer <access token>"/],
  ];
  const apis = [
    ['partner', '/partners', PARTNER, { statusCode: 401, message: 'Unauthorized' }],
    ['v2', '/v2/verifications/', V2, { statusCode: 401, code: 'UNAUTHORIZED_ERROR', message: 'Unauthorized' }],
  ] as const;

  describe.each(apis)('%s', (_api, path, cases, body) => {
    it.each(cases)('%s', async (_name, headers, reason) => {
      const sent = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('CURRENT', current)]));
      // The partner API's type on every call, so only the credential is wrong.
      const res = await fetch(`${served.sandbox.url}${path}`, {
        headers: { 'Content-Type': 'application/json', ...sent },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('x-sandbox-reason')).toMatch(reason);
      expect(await res.json()).toEqual(body);
    });
  });

  it('an accepted credential carries no reason', async () => {
    const res = await call('GET', '/partners');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sandbox-reason')).toBeNull();
    expect(served.sandbox.violations).toEqual([]);
  });
});

describe('partner enum errors list the allowed values, as v2 details do', () => {
  it('in a query', async () => {
    const res = await call('GET', '/verifications?status=done');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      message:
        'status.0 must be one of created, started, waitingForUserInput, inReview, completed, declined, closed, expired, reverted',
    });
  });

  it('in a body', async () => {
    const res = await call('POST', '/verifications', {
      externalUserId: '5a0f7c1e-2b4d-4e8a-9c3f-6d1b8e2a7f40',
      redirectUrl: 'https://partner.example.com/done',
      requirements: [{ type: 'passport' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'body.requirements.0.type must be one of firstAndLastName, dateOfBirth, document, phoneNumbers',
    );
  });
});

describe('a body that is not JSON is refused with where', () => {
  const post = (api: string, body: string) => call('POST', api, body);

  it('partner: line, column and offset in the message', async () => {
    const res = await post(
      '/verifications',
      '{\n  "externalUserId": "5a0f7c1e-2b4d-4e8a-9c3f-6d1b8e2a7f40"\n  "redirectUrl": "https://partner.example.com/done"\n}',
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      message: "body is not valid JSON: expected ',' or '}' after property value at line 3, column 3 (offset 63)",
    });
  });

  it('control API: the same words', async () => {
    const res = await post('/_sandbox/seed', '{"verifications": x}');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("body is not valid JSON: unexpected token 'x' at line 1, column 19 (offset 18)");
  });

  const texts: [string, string, number][] = [
    ['{"a": x}', "unexpected token 'x'", 6],
    ['hello', "unexpected token 'h'", 0],
    ['{"a": tru}', "unexpected token '}'", 9],
    ["{'a':1}", "expected property name or '}'", 1],
    ['{"a":1,}', 'expected double-quoted property name', 7],
    ['{"a":', 'it ends too soon', 5],
    ['{"a":"b"}x', 'unexpected non-whitespace character after the JSON value', 9],
    ['[1, 2,, 3]', "unexpected token ','", 6],
    [`[${'1,'.repeat(200_000)}x]`, "unexpected token 'x'", 400_001],
  ];
  for (const [text, what, position] of texts) {
    it(`jsonMistake ${text.length > 40 ? `(${text.length} characters)` : text}`, () => {
      expect(jsonMistake(text)).toMatchObject({ what, position, line: 1, column: position + 1 });
    });
  }

  it('jsonMistake counts lines and columns, and finds nothing in JSON', () => {
    expect(jsonMistake('{\n  "a": 1,\n  "b": ]\n}')).toEqual({
      what: "unexpected token ']'",
      position: 19,
      line: 3,
      column: 8,
    });
    expect(jsonMistake('{"a": [1, {"b": null}]}')).toBeUndefined();
  });
});
