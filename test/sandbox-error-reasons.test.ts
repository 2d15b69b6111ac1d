// The sandbox's refusals say what to do: a 401 keeps the documented body and
// names the mistake in X-Sandbox-Reason; partner enum errors list the allowed
// values (as v2's details do); a body that is not JSON is refused with where.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonMistake } from '../src/sandbox/http/json-position.js';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';

const KEY = 'sbx_reasons_key_0123456789';
const TOKEN = 'v2_reasons_token_0123456789';
let sandbox: Sandbox;
let rotatedAway: string;
let current: string;

beforeAll(async () => {
  sandbox = await serveSandbox({ port: 0, authKey: KEY, accessToken: TOKEN, validateResponses: true });
  const rotated = await fetch(`${sandbox.url}/auth-keys`, {
    method: 'POST',
    headers: { 'X-Auth-Key': KEY, 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(rotated.status).toBe(201);
  rotatedAway = KEY;
  current = ((await rotated.json()) as { authKeys: { key: string; active: boolean }[] }).authKeys.find(
    (k) => k.active,
  )!.key;
});
afterAll(() => sandbox.close());

describe('a 401 says why in X-Sandbox-Reason, with the documented body', () => {
  const cases: [string, string, () => Record<string, string>, RegExp][] = [
    [
      'partner, no credential',
      '/partners',
      () => ({}),
      /^no X-Auth-Key header: the partner API takes the auth key in X-Auth-Key$/,
    ],
    [
      'partner, an unknown key',
      '/partners',
      () => ({ 'X-Auth-Key': 'sbx_typo' }),
      /^unknown X-Auth-Key: no key of this sandbox has this value/,
    ],
    [
      'partner, a key rotated away',
      '/partners',
      () => ({ 'X-Auth-Key': rotatedAway }),
      /^this X-Auth-Key was rotated away: POST \/auth-keys made it invalid; send the newest key$/,
    ],
    [
      'partner, a bearer token',
      '/partners',
      () => ({ Authorization: `Bearer ${TOKEN}` }),
      /^a bearer token was sent to the partner API, which takes the auth key in the X-Auth-Key header$/,
    ],
    [
      'partner, the v2 token as X-Auth-Key',
      '/partners',
      () => ({ 'X-Auth-Key': TOKEN }),
      /^X-Auth-Key holds the v2 access token; the partner API takes the auth key$/,
    ],
    [
      'v2, no credential',
      '/v2/verifications/',
      () => ({}),
      /^no Authorization header: the v2 API takes Authorization: Bearer <access token>$/,
    ],
    [
      'v2, an X-Auth-Key',
      '/v2/verifications/',
      () => ({ 'X-Auth-Key': current }),
      /^X-Auth-Key was sent to the v2 API, which takes Authorization: Bearer <access token>$/,
    ],
    [
      'v2, an auth key as the bearer token',
      '/v2/verifications/',
      () => ({ Authorization: `Bearer ${current}` }),
      /^the bearer token is a partner auth key; the v2 API takes the v2 access token$/,
    ],
    [
      'v2, an unknown token',
      '/v2/verifications/',
      () => ({ Authorization: 'Bearer v2_typo' }),
      /^unknown bearer token: not the access token of this sandbox/,
    ],
    [
      'v2, another scheme',
      '/v2/verifications/',
      () => ({ Authorization: TOKEN }),
      /^Authorization is not "Bearer <access token>"/,
    ],
  ];
  for (const [name, path, headers, reason] of cases) {
    it(name, async () => {
      // The partner API's type on every call, so only the credential is wrong.
      const res = await fetch(`${sandbox.url}${path}`, {
        headers: { 'Content-Type': 'application/json', ...headers() },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('x-sandbox-reason')).toMatch(reason);
      const body = await res.json();
      expect(body).toEqual(
        path.startsWith('/v2/')
          ? { statusCode: 401, code: 'UNAUTHORIZED_ERROR', message: 'Unauthorized' }
          : { statusCode: 401, message: 'Unauthorized' },
      );
    });
  }

  it('an accepted credential carries no reason', async () => {
    const res = await fetch(`${sandbox.url}/partners`, {
      headers: { 'X-Auth-Key': current, 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sandbox-reason')).toBeNull();
    expect(sandbox.violations).toEqual([]);
  });
});

describe('partner enum errors list the allowed values, as v2 details do', () => {
  it('in a query', async () => {
    const res = await fetch(`${sandbox.url}/verifications?status=done`, {
      headers: { 'X-Auth-Key': current, 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      statusCode: 400,
      message:
        'status.0 must be one of created, started, waitingForUserInput, inReview, completed, declined, closed, expired, reverted',
    });
  });

  it('in a body', async () => {
    const res = await fetch(`${sandbox.url}/verifications`, {
      method: 'POST',
      headers: { 'X-Auth-Key': current, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        externalUserId: '5a0f7c1e-2b4d-4e8a-9c3f-6d1b8e2a7f40',
        redirectUrl: 'https://partner.example.com/done',
        requirements: [{ type: 'passport' }],
      }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(
      'body.requirements.0.type must be one of firstAndLastName, dateOfBirth, document, phoneNumbers',
    );
  });
});

describe('a body that is not JSON is refused with where', () => {
  const post = (api: string, body: string) =>
    fetch(`${sandbox.url}${api}`, {
      method: 'POST',
      headers: { 'X-Auth-Key': current, 'Content-Type': 'application/json' },
      body,
    });

  it('partner: line, column and offset in the message', async () => {
    const res = await post(
      '/verifications',
      '{\n  "externalUserId": "5a0f7c1e-2b4d-4e8a-9c3f-6d1b8e2a7f40"\n  "redirectUrl": "https://partner.example.com/done"\n}',
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      statusCode: 400,
      message: "body is not valid JSON: expected ',' or '}' after property value at line 3, column 3 (offset 63)",
    });
  });

  it('control API: the same words', async () => {
    const res = await post('/_sandbox/seed', '{"verifications": x}');
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(
      "body is not valid JSON: unexpected token 'x' at line 1, column 19 (offset 18)",
    );
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
