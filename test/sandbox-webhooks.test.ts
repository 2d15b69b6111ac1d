// Webhook delivery from the sandbox to a real loopback receiver: retried on
// the interval until answered 200, recorded in place in the histories, and
// never in the way of the API. (The documented sequences delivered, and
// signed with the key active at the time, are held by arazzo.test.ts.)
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseWebhookEvent } from '../src/webhooks/index.js';
import { knownEvent } from './helpers/known-event.js';
import { validatorFor } from './helpers/openapi.js';
import { startReceiver, useServedSandbox } from './helpers/served-sandbox.js';

const partnerDoc = validatorFor('partner');
let hooks: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  hooks = await startReceiver();
});
afterAll(() => hooks.close());
// The lines the sandbox prints for failed deliveries (stderr by default).
const failures: string[] = [];
const served = useServedSandbox(() => ({
  webhookUrl: hooks.url,
  retryIntervalSeconds: 0.2,
  onDeliveryFailure: (line) => failures.push(line),
}));
const { call, control } = served;
afterEach(() => {
  // Every delivery: signed with this sandbox's key, a documented event, valid against the contract.
  for (const { body, signature } of hooks.arrivals.splice(0)) {
    partnerDoc.expectValid('WebhookEvent', knownEvent(parseWebhookEvent(body, signature, served.sandbox.authKey)));
  }
  hooks.answer = () => 200;
});

const history = async (id: string) => (await call('GET', `/verifications/${id}/webhooks`)).body;

let n = 0;
const createVerification = async () => {
  n += 1;
  const res = await call('POST', '/verifications', {
    externalUserId: `7c2e9a41-3b5d-4f80-9e1a-${String(n).padStart(12, '0')}`,
    redirectUrl: 'https://partner.example.com/kyc/done',
    phoneNumbers: [{ phoneNumber: `+4917${String(60_000_000 + n)}`, isVerified: false }],
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
};

describe('delivery', () => {
  it('retries an unanswered delivery on the interval, updating the one record in place', async () => {
    hooks.answer = ({ attempt }) => (attempt < 3 ? 503 : 200);
    const id = await createVerification();
    await expect
      .poll(() => hooks.arrivals.filter((a) => a.event.eventType === 'verification.created').length, {
        timeout: 5000,
      })
      .toBe(1);
    const first = await history(id);
    expect(first.count).toBe(1);
    const [record] = first.webhooks;
    await expect.poll(async () => (await history(id)).webhooks[0].retryAt, { timeout: 5000 }).not.toBeNull();
    const failing = (await history(id)).webhooks[0];
    expect(failing).toMatchObject({ id: record.id, success: false });
    expect(Date.parse(failing.retryAt)).toBeGreaterThan(Date.parse(failing.updatedAt) - 1);
    await expect.poll(() => hooks.attempts.get(record.payload.eventId), { timeout: 5000 }).toBe(3);
    await expect.poll(async () => (await history(id)).webhooks[0].success, { timeout: 5000 }).toBe(true);
    const delivered = await history(id);
    expect(delivered.count).toBe(1);
    expect(delivered.webhooks[0]).toMatchObject({ id: record.id, success: true, retryAt: null });
    expect(Date.parse(delivered.webhooks[0].updatedAt)).toBeGreaterThan(Date.parse(record.updatedAt));
    expect(hooks.arrivals.filter((a) => a.event.eventId === record.payload.eventId).map((a) => a.event)).toEqual([
      record.payload,
      record.payload,
      record.payload,
    ]);
    // One line per failed attempt: what, where, why and when it is retried.
    const lines = failures.filter((l) => l.includes(record.payload.eventId));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(
        `^webhook verification\\.created ${record.payload.eventId} to ${hooks.url} not delivered: the webhook address answered 503; retried at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z \\(sandbox time\\)$`,
      ),
    );
  });

  it('answers API calls while the receiver holds a delivery, and records a dead receiver as a failure', async () => {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    hooks.answer = (_a, res) => void held.then(() => res.writeHead(200).end());
    const id = await createVerification();
    await expect.poll(() => hooks.arrivals.length).toBe(1);
    // The receiver has not answered yet, and the API still does.
    expect((await call('GET', `/verifications/${id}`)).status).toBe(200);
    expect((await control(`/verifications/${id}/open`, {})).status).toBe(200);
    release();

    await call('PUT', '/partners', { webhookUrl: 'http://127.0.0.1:9/closed' });
    const lost = await createVerification();
    await expect.poll(async () => (await history(lost)).webhooks[0].retryAt, { timeout: 5000 }).not.toBeNull();
    expect((await history(lost)).webhooks[0]).toMatchObject({
      success: false,
      reason: expect.stringMatching(/no answer/),
    });
    await call('PUT', '/partners', { webhookUrl: hooks.url });
  });
});
