// The local sandbox's refusals and rules at their edges, on one served sandbox
// (phone numbers: P17, P8, S6).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAST_DATE_TIME_MS, LATEST_CLOCK_MS } from '../src/sandbox/common/clock.js';
import { jsonMistake } from '../src/sandbox/http/json-position.js';
import { serveSandbox } from '../src/sandbox/server.js';
import { loadBundle } from './helpers/openapi.js';
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
  it.each([
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
  ] as const)('%s: each mistake is told apart by a reason of its own', async (_api, path, cases, body) => {
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

// The allowed values are the document's, so a value added to it is expected here too.
const PASSPORT = {
  externalUserId: crypto.randomUUID(),
  redirectUrl: 'https://x.example/',
  requirements: [{ type: 'passport' }],
};
it.each([
  ['a query', 'GET', '/verifications?status=done', undefined, 'status.0', 'VerificationStatus'],
  ['a body', 'POST', '/verifications', PASSPORT, 'body.requirements.0.type', 'RequirementType'],
])(
  'a partner enum error in %s names the field and lists the allowed values, as v2 details do',
  async (_, method, target, body, field, schema) => {
    const res = await call(method, target, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining(`${field} `) });
    for (const value of loadBundle('partner').components.schemas[schema].enum)
      expect(res.body.message).toContain(value);
  },
);

describe('a body that is not JSON is refused with where', () => {
  it.each([
    [
      '/verifications',
      '{\n  "externalUserId": "5a0f7c1e-2b4d-4e8a-9c3f-6d1b8e2a7f40"\n  "redirectUrl": "https://partner.example.com/done"\n}',
      'line 3, column 3 (offset 63)',
    ],
    ['/_sandbox/seed', '{"verifications": x}', 'line 1, column 19 (offset 18)'],
  ])('%s: line, column and offset in the message', async (target, body, where) => {
    const res = await call('POST', target, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining(where) });
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

const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-clock-limit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const post = (target: string, body: unknown) => call('POST', target, body);
const get = (target: string) => call('GET', target);
const create = (phoneNumbers: unknown[], extra: Record<string, unknown> = {}) =>
  post('/verifications', {
    phoneNumbers,
    externalUserId: crypto.randomUUID(),
    redirectUrl: 'https://partner.example/done',
    ...extra,
  });

async function createVerification(phoneNumber: string) {
  const answer = await create([{ phoneNumber, isVerified: false }], { requirements: [{ type: 'document' }] });
  expect(answer.status).toBe(201);
  return answer.body as { id: string };
}

describe('rule 2 of the create operation in the phone-verification step', () => {
  it('verifying a number on an open session closes the other open session holding it', async () => {
    const holder = await createVerification('+4915188880001');
    const other = await createVerification('+4915188880002');
    expect((await call('POST', `/_sandbox/verifications/${other.id}/open`)).status).toBe(200);
    const verified = await call('POST', `/_sandbox/verifications/${other.id}/phone-verification`, {
      phoneNumber: '+4915188880001',
    });
    expect(verified.status).toBe(200);
    expect(verified.body.phoneNumbers).toContainEqual({ phoneNumber: '+4915188880001', isVerified: true });
    expect((await call('GET', `/verifications/${holder.id}`)).body.status).toBe('closed');
    const open = await call('GET', '/verifications?phoneNumber=%2B4915188880001&status=created,started');
    expect(open.body.verifications.map((v: { id: string }) => v.id)).toEqual([other.id]);
    const history = await call('GET', `/verifications/${holder.id}/webhooks`);
    expect(
      history.body.webhooks.map((w: { payload: { data: { status: string } } }) => w.payload.data.status),
    ).toContain('closed');
  });

  it('a number the session already holds closes nothing', async () => {
    const session = await createVerification('+4915188880003');
    expect((await call('POST', `/_sandbox/verifications/${session.id}/open`)).status).toBe(200);
    expect((await call('POST', `/_sandbox/verifications/${session.id}/phone-verification`)).status).toBe(200);
    expect((await call('GET', `/verifications/${session.id}`)).body.status).toBe('started');
  });
});

let next = 4917600000000;
const freshPhone = () => `+${next++}`;

/** A verification of these numbers, opened and scanned with `outcome`: its id and the scan's answer. */
async function scanned(phoneNumbers: string[], outcome: string, extra: Record<string, unknown> = {}) {
  const { body: v } = await create(
    phoneNumbers.map((phoneNumber) => ({ phoneNumber, isVerified: true })),
    extra,
  );
  expect((await post(`/_sandbox/verifications/${v.id}/open`, {})).status).toBe(200);
  return { id: v.id as string, ...(await post(`/_sandbox/verifications/${v.id}/scan`, { outcome })) };
}

describe('phone numbers as the partner reference gives them', () => {
  it('takes a number in any form in a create body and answers it as sent', async () => {
    const answer = await create([{ phoneNumber: '0151 1234 5678', isVerified: false }]);
    expect(answer.status).toBe(201);
    expect(answer.body.phoneNumbers).toEqual([{ phoneNumber: '0151 1234 5678', isVerified: false }]);
  });

  it('refuses an entry without isVerified, naming it', async () => {
    const answer = await create([{ phoneNumber: '+4915112345678' }]);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/isVerified/);
  });
});

describe('a phone number at completion (S6)', () => {
  it('declines a session with phoneNumberOfAnotherUser, from started or waitingForUserInput, leaving the holder as it was', async () => {
    const phone = freshPhone();
    const holder = await scanned([phone], 'pass');
    const before = await get(`/users/${holder.body.userId}`);
    const fromStarted = await scanned([phone], 'phoneNumberOfAnotherUser');
    expect(fromStarted).toMatchObject({ status: 200, body: { status: 'declined', userId: null } });

    const waiting = await scanned([phone], 'pass', { requirements: [{ type: 'firstAndLastName' }] });
    expect(waiting.body.status).toBe('waitingForUserInput');
    const fromWaiting = await post(`/_sandbox/verifications/${waiting.id}/scan`, {
      outcome: 'phoneNumberOfAnotherUser',
    });
    expect(fromWaiting).toMatchObject({ status: 200, body: { status: 'declined', userId: null } });
    const after = await get(`/users/${holder.body.userId}`);
    expect([after.status, after.text]).toEqual([before.status, before.text]);
  });

  it('refuses phoneNumberOfAnotherUser with 409 while no user holds a number of the session, changing nothing', async () => {
    const refused = await scanned([freshPhone()], 'phoneNumberOfAnotherUser');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/no user holds a phone number/i);
    expect((await get(`/verifications/${refused.id}`)).body.status).toBe('started');
  });

  it('keeps a number that is not E.164 on the verification and gives the user only the E.164 ones', async () => {
    const e164 = freshPhone();
    const done = await scanned(['0151 1234 5678', e164], 'pass');
    expect(done.body.status).toBe('completed');
    expect(done.body.phoneNumbers.map((p: { phoneNumber: string }) => p.phoneNumber)).toEqual(['0151 1234 5678', e164]);
    const user = await get(`/users/${done.body.userId}`);
    expect(user.body.phoneNumbers.map((p: { phoneNumber: string }) => p.phoneNumber)).toEqual([e164]);
  });
});

describe('bodies', () => {
  it.each([
    ['__proto__', '{"__proto__":{"isAdmin":true},"externalUserId":"x"}'],
    ['escaped __proto__', '{"\\u005f_proto__":{}}'],
    ['constructor.prototype', '{"constructor":{"prototype":{}}}'],
  ])('a %s key is refused as a prototype key, not as invalid JSON', async (_, body) => {
    for (const target of ['/verifications', '/_sandbox/seed']) {
      const answer = await call('POST', target, body);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/"__proto__"/);
      expect(answer.body.message).not.toMatch(/not valid JSON/);
    }
  });

  it('JSON that is broken is still "not valid JSON"', async () => {
    expect((await call('POST', '/verifications', '{"__proto__":')).body.message).toMatch(/not valid JSON/);
  });

  it.each(['[]', '1', 'null', '"seed"', '{"count":3}'])(
    'the control operations that take no data refuse %s',
    async (body) => {
      const session = await createVerification('+4915188880009');
      const targets = [
        '/_sandbox/seed',
        '/_sandbox/reset',
        `/_sandbox/verifications/${session.id}/expire`,
        `/_sandbox/verifications/${session.id}/review/accept`,
      ];
      for (const target of targets) {
        const answer = await call('POST', target, body);
        expect(answer.status, target).toBe(400);
        expect(answer.body.message).toMatch(/^body must/);
      }
    },
  );

  it('and take no body or {}', async () => {
    expect((await call('POST', '/_sandbox/seed')).status).toBe(200);
    expect((await call('POST', '/_sandbox/seed', '{}')).status).toBe(200);
    const session = await createVerification('+4915188880010');
    expect((await call('POST', `/_sandbox/verifications/${session.id}/expire`, '{}')).status).toBe(200);
    expect((await call('POST', '/_sandbox/reset', '{}')).status).toBe(204);
  });
});

// Last: it leaves the file's sandbox with its clock near the limit.
describe('the clock stops where date-times end', () => {
  it('keeps a 30-day margin before 9999-12-31T23:59:59.999Z', () => {
    expect(new Date(LAST_DATE_TIME_MS).toISOString()).toBe('9999-12-31T23:59:59.999Z');
    expect(new Date(LATEST_CLOCK_MS).toISOString()).toBe('9999-12-01T23:59:59.999Z');
  });

  it('refuses a move past the limit with a 400 saying so; every control call, reset included, still answers', async () => {
    // Close to the limit without thousands of one-year moves.
    served.sandbox.clock.advance(Math.floor((LATEST_CLOCK_MS - served.sandbox.clock.nowMs()) / 60_000) - 1000);
    const refused = await call('POST', '/_sandbox/clock/advance', { minutes: 525600 });
    expect(refused.status).toBe(400);
    // It says how far the clock may still move.
    expect(refused.body.message).toMatch(/\b\d+ minutes\b/);
    const clock = await call('GET', '/_sandbox/clock');
    expect(clock.status).toBe(200);
    expect(clock.body.now).toMatch(/^9999-12-01T/);
    // A move that stays within the limit is taken.
    expect((await call('POST', '/_sandbox/clock/advance', { minutes: 500 })).status).toBe(200);
    const created = await createVerification('+4915199990000');
    expect((await call('GET', `/verifications/${created.id}`)).body.validTo).toMatch(/^9999-12-/);
    // A document scanned now expires on a date a date can still say.
    const passed = await scanned([freshPhone()], 'pass');
    const { userId } = (await call('GET', `/verifications/${passed.id}`)).body;
    const user = await call('GET', `/users/${userId}`);
    expect(user.status, JSON.stringify(user.body)).toBe(200);
    expect(user.body.documents.map((d: { expiryAt: string }) => d.expiryAt)).toEqual(['9999-12-31']);
    expect((await call('POST', '/_sandbox/reset')).status).toBe(204);
    expect((await call('GET', '/_sandbox/credentials')).status).toBe(200);
  });

  it('refuses to load a state file whose clock is past the limit, with the file and the fix in the error', async () => {
    const state = path.join(dir, 'far-future.jsonl');
    const first = await serveSandbox({ port: 0, state });
    await first.close();
    const [header, ...rest] = readFileSync(state, 'utf8').split('\n');
    const parsed = JSON.parse(header);
    // A file whose clock runs into year 10021.
    parsed.clockOffsetMs = Date.UTC(10021, 0, 1) - Date.now();
    writeFileSync(state, [JSON.stringify(parsed), ...rest].join('\n'));
    // The file and the instant its clock would reach.
    const refused = serveSandbox({ port: 0, state });
    await expect(refused).rejects.toThrow(state);
    await expect(refused).rejects.toThrow('+010021-');
  });
});
