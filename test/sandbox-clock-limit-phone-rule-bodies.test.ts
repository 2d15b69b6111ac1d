// Three rules of the sandbox at their edges: the clock cannot be moved
// past what a date-time can say, and a state
// file whose clock is there is refused with a clear error; the
// phone-verification step keeps rule 2 of the create operation (one open
// verification per phone number); a body with a prototype key is refused as
// such, not as "not JSON"; the operations that take no body refuse any JSON
// but `{}`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LAST_DATE_TIME_MS, LATEST_CLOCK_MS } from '../src/sandbox/common/clock.js';
import { serveSandbox } from '../src/sandbox/server.js';
import { useServedSandbox } from './helpers/served-sandbox.js';

const served = useServedSandbox();
const { call } = served;
const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-clock-limit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function createVerification(phoneNumber: string) {
  const answer = await call('POST', '/verifications', {
    phoneNumbers: [{ phoneNumber, isVerified: false }],
    externalUserId: crypto.randomUUID(),
    redirectUrl: 'https://partner.example/done',
    requirements: [{ type: 'document' }],
  });
  expect(answer.status).toBe(201);
  return answer.body as { id: string };
}

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
    expect(refused.body.message).toMatch(
      /past 9999-12-01T23:59:59\.999Z.*9999-12-31T23:59:59\.999Z.*Move it at most \d+ minutes more/,
    );
    const clock = await call('GET', '/_sandbox/clock');
    expect(clock.status).toBe(200);
    expect(clock.body.now).toMatch(/^9999-12-01T/);
    // A move that stays within the limit is taken.
    expect((await call('POST', '/_sandbox/clock/advance', { minutes: 500 })).status).toBe(200);
    const created = await createVerification('+4915199990000');
    expect((await call('GET', `/verifications/${created.id}`)).body.validTo).toMatch(/^9999-12-/);
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
    await expect(serveSandbox({ port: 0, state })).rejects.toThrow(
      new RegExp(
        `^${state.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: its clock runs .* minutes ahead, so the sandbox clock would be at \\+010021-.*Start with a new state file`,
      ),
    );
  });
});

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

describe('bodies', () => {
  it.each([
    ['__proto__', '{"__proto__":{"isAdmin":true},"externalUserId":"x"}'],
    ['escaped __proto__', '{"\\u005f_proto__":{}}'],
    ['constructor.prototype', '{"constructor":{"prototype":{}}}'],
  ])('a %s key is refused as a prototype key, not as invalid JSON', async (_, body) => {
    for (const target of ['/verifications', '/_sandbox/seed']) {
      const answer = await call('POST', target, body);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(
        /^body has a "__proto__" key, or a "constructor" key holding "prototype", which is refused .*rename or remove it$/,
      );
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
        // An object with fields is told what to send instead.
        if (body.startsWith('{'))
          expect(answer.body.message).toBe('body must be {} or left out: this operation takes no fields');
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
