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

const authKey = (value: string) => ({ 'X-Auth-Key': value });
const authorization = (value: string) => ({ Authorization: value });

describe('a 401 says why in X-Sandbox-Reason, with the documented body', () => {
  // No credential, an unknown one, a rotated-away key, and each API's credential sent to the other.
  const apis = [
    [
      'partner',
      '/partners',
      [{}, authKey('sbx_typo'), authKey(KEY), authorization(`Bearer ${TOKEN}`), authKey(TOKEN)],
      { statusCode: 401, message: 'Unauthorized' },
    ],
    [
      'v2',
      '/v2/verifications/',
      [{}, authKey('CURRENT'), authorization('Bearer CURRENT'), authorization('Bearer v2_typo'), authorization(TOKEN)],
      { statusCode: 401, code: 'UNAUTHORIZED_ERROR', message: 'Unauthorized' },
    ],
  ] as const;

  it.each(apis)('%s: each mistake is told apart by a reason of its own', async (_api, path, cases, body) => {
    const reasons = new Set<string | null>();
    for (const headers of cases) {
      const sent = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('CURRENT', current)]));
      // The partner API's type on every call, so only the credential is wrong.
      const res = await fetch(`${served.sandbox.url}${path}`, {
        headers: { 'Content-Type': 'application/json', ...sent },
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(body);
      reasons.add(res.headers.get('x-sandbox-reason'));
    }
    expect(reasons.has(null)).toBe(false);
    expect(reasons.size).toBe(cases.length);
  });

  it('an accepted credential carries no reason', async () => {
    const res = await call('GET', '/partners');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sandbox-reason')).toBeNull();
    expect(served.sandbox.violations).toEqual([]);
  });
});

it.each([
  [
    'a query',
    'GET',
    '/verifications?status=done',
    undefined,
    'status.0 must be one of created, started, waitingForUserInput, inReview, completed, declined, closed, expired, reverted',
  ],
  [
    'a body',
    'POST',
    '/verifications',
    {
      externalUserId: '5a0f7c1e-2b4d-4e8a-9c3f-6d1b8e2a7f40',
      redirectUrl: 'https://partner.example.com/done',
      requirements: [{ type: 'passport' }],
    },
    'body.requirements.0.type must be one of firstAndLastName, dateOfBirth, document, phoneNumbers',
  ],
])(
  'a partner enum error in %s lists the allowed values, as v2 details do',
  async (_, method, target, body, message) => {
    const res = await call(method, target, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message });
  },
);

describe('a body that is not JSON is refused with where', () => {
  it.each([
    [
      '/verifications',
      '{\n  "externalUserId": "5a0f7c1e-2b4d-4e8a-9c3f-6d1b8e2a7f40"\n  "redirectUrl": "https://partner.example.com/done"\n}',
      "body is not valid JSON: expected ',' or '}' after property value at line 3, column 3 (offset 63)",
    ],
    [
      '/_sandbox/seed',
      '{"verifications": x}',
      "body is not valid JSON: unexpected token 'x' at line 1, column 19 (offset 18)",
    ],
  ])('%s: line, column and offset in the message', async (target, body, message) => {
    const res = await call('POST', target, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message });
  });

  it.each([
    ['{"a": x}', "unexpected token 'x'", 6],
    ['hello', "unexpected token 'h'", 0],
    ['{"a": tru}', "unexpected token '}'", 9],
    ["{'a':1}", "expected property name or '}'", 1],
    ['{"a":1,}', 'expected double-quoted property name', 7],
    ['{"a":', 'it ends too soon', 5],
    ['{"a":"b"}x', 'unexpected non-whitespace character after the JSON value', 9],
    ['[1, 2,, 3]', "unexpected token ','", 6],
    [`[${'1,'.repeat(200_000)}x]`, "unexpected token 'x'", 400_001],
  ])('jsonMistake finds the mistake in text %#, on its first line', (text, what, position) => {
    expect(jsonMistake(text)).toMatchObject({ what, position, line: 1, column: position + 1 });
  });

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
