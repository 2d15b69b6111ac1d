// Webhook delivery from the sandbox to a real loopback receiver: signed with
// the current key, each documented event of a sequence (delivered in any
// order, as the documents give no delivery order), retried on the interval until
// answered 200, recorded in place in the histories, and never in the way of
// the API.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';
import { parseWebhookEvent, verifyWebhookSignature, type WebhookEvent } from '../src/webhooks/index.js';
import { knownEvent } from './helpers/known-event.js';
import { validatorFor } from './helpers/openapi.js';
import { NEW_USER_SEQUENCE } from './helpers/sequences.js';

interface Delivery {
  event: WebhookEvent;
  signedWith: string;
  attempt: number;
}

const partnerDoc = validatorFor('partner');
let sandbox: Sandbox;
let receiverUrl = '';
const received: Delivery[] = [];
const keys: string[] = [];
// Per-test behaviour of the receiver: its answer to a delivery.
let answer: (event: WebhookEvent, attempt: number, res: ServerResponse) => void = (_e, _a, res) =>
  res.writeHead(200).end();
const attempts = new Map<string, number>();
// The lines the sandbox prints for failed deliveries (stderr by default).
const failures: string[] = [];

const receiver = createServer((req: IncomingMessage, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const signature = req.headers['x-signature'];
    const signedWith = keys.find((k) => verifyWebhookSignature(raw, signature, k)) ?? 'unknown key';
    const event = knownEvent(parseWebhookEvent(raw, signature, keys));
    const attempt = (attempts.get(event.eventId) ?? 0) + 1;
    attempts.set(event.eventId, attempt);
    received.push({ event, signedWith, attempt });
    answer(event, attempt, res);
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  sandbox = await serveSandbox({
    port: 0,
    validateResponses: true,
    webhookUrl: receiverUrl,
    retryIntervalSeconds: 0.2,
    onDeliveryFailure: (line) => failures.push(line),
  });
  keys.push(sandbox.authKey);
});
afterEach(() => {
  answer = (_e, _a, res) => res.writeHead(200).end();
});
afterAll(async () => {
  expect(sandbox.violations).toEqual([]);
  await sandbox.close();
  await new Promise<void>((r) => receiver.close(() => r()));
});

const api = async (path: string, method = 'GET', body?: unknown) => {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { 'X-Auth-Key': sandbox.partner.activeAuthKey(), 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};
const control = (path: string, body: unknown = {}) => api(`/_sandbox${path}`, 'POST', body);
let n = 0;
const createVerification = async () => {
  n += 1;
  const res = await api('/verifications', 'POST', {
    externalUserId: `7c2e9a41-3b5d-4f80-9e1a-${String(n).padStart(12, '0')}`,
    redirectUrl: 'https://partner.example.com/kyc/done',
    phoneNumbers: [{ phoneNumber: `+4917${String(60_000_000 + n)}`, isVerified: false }],
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
};
describe('delivery', () => {
  it('posts every event of the new-user sequence, signed with the current key, valid against the contract', async () => {
    received.length = 0;
    const id = await createVerification();
    await control(`/verifications/${id}/open`);
    const done = await control(`/verifications/${id}/scan`, { outcome: 'pass' });
    await control(`/verifications/${id}/name`, { firstName: 'Marta', lastName: 'Nowakowska' });
    await control(`/verifications/${id}/phone-verification`);
    await expect.poll(() => received.length).toBe(6);
    // Each event goes out on its own, so those of one request may arrive either
    // way round: the sequence is the order of generation, which the histories keep.
    expect(received.map((d) => d.event.eventType).sort()).toEqual([...NEW_USER_SEQUENCE].sort());
    for (const d of received) {
      expect(d.signedWith).toBe(sandbox.authKey);
      partnerDoc.expectValid('WebhookEvent', d.event);
    }
    const history = await api(`/verifications/${id}/webhooks`);
    expect(history.body.count).toBe(3);
    expect(history.body.webhooks.map((w: { payload: WebhookEvent }) => w.payload.eventType)).toEqual(
      NEW_USER_SEQUENCE.filter((t) => t.startsWith('verification.')),
    );
    await expect
      .poll(async () =>
        (await api(`/verifications/${id}/webhooks`)).body.webhooks.every((w: { success: boolean }) => w.success),
      )
      .toBe(true);
    const userHistory = await api(`/users/${done.body.userId}/webhooks`);
    expect(userHistory.body.webhooks.map((w: { payload: WebhookEvent }) => w.payload.eventType)).toEqual([
      'user.created',
      'user.updated',
      'user.updated',
    ]);
  });

  it('retries an unanswered delivery on the interval, updating the one record in place', async () => {
    received.length = 0;
    answer = (_e, attempt, res) => res.writeHead(attempt < 3 ? 503 : 200).end();
    const id = await createVerification();
    await expect
      .poll(() => received.filter((d) => d.event.eventType === 'verification.created').length, { timeout: 5000 })
      .toBe(1);
    const first = await api(`/verifications/${id}/webhooks`);
    expect(first.body.count).toBe(1);
    const [record] = first.body.webhooks;
    await expect
      .poll(async () => (await api(`/verifications/${id}/webhooks`)).body.webhooks[0].retryAt, { timeout: 5000 })
      .not.toBeNull();
    const failing = (await api(`/verifications/${id}/webhooks`)).body.webhooks[0];
    expect(failing).toMatchObject({ id: record.id, success: false });
    expect(Date.parse(failing.retryAt)).toBeGreaterThan(Date.parse(failing.updatedAt) - 1);
    await expect.poll(() => attempts.get(record.payload.eventId), { timeout: 5000 }).toBe(3);
    await expect
      .poll(async () => (await api(`/verifications/${id}/webhooks`)).body.webhooks[0].success, { timeout: 5000 })
      .toBe(true);
    const delivered = (await api(`/verifications/${id}/webhooks`)).body;
    expect(delivered.count).toBe(1);
    expect(delivered.webhooks[0]).toMatchObject({ id: record.id, success: true, retryAt: null });
    expect(Date.parse(delivered.webhooks[0].updatedAt)).toBeGreaterThan(Date.parse(record.updatedAt));
    expect(received.filter((d) => d.event.eventId === record.payload.eventId).map((d) => d.event)).toEqual([
      record.payload,
      record.payload,
      record.payload,
    ]);
    // One line per failed attempt: what, where, why and when it is retried.
    const lines = failures.filter((l) => l.includes(record.payload.eventId));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(
        `^webhook verification\\.created ${record.payload.eventId} to ${receiverUrl} not delivered: the webhook address answered 503; retried at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z \\(sandbox time\\)$`,
      ),
    );
  });

  it('signs with the new key after a rotation', async () => {
    const rotated = await api('/auth-keys', 'POST', {});
    const fresh = rotated.body.authKeys.find((k: { active: boolean }) => k.active).key;
    keys.push(fresh);
    received.length = 0;
    await createVerification();
    await expect.poll(() => received.length).toBeGreaterThan(0);
    expect(received[0].signedWith).toBe(fresh);
  });

  it('answers API calls while the receiver holds a delivery, and records a dead receiver as a failure', async () => {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    answer = (_e, _a, res) => void held.then(() => res.writeHead(200).end());
    received.length = 0;
    const id = await createVerification();
    await expect.poll(() => received.length).toBe(1);
    // The receiver has not answered yet, and the API still does.
    expect((await api(`/verifications/${id}`)).status).toBe(200);
    expect((await control(`/verifications/${id}/open`)).status).toBe(200);
    release();

    await api('/partners', 'PUT', { webhookUrl: 'http://127.0.0.1:9/closed' });
    const lost = await createVerification();
    await expect
      .poll(async () => (await api(`/verifications/${lost}/webhooks`)).body.webhooks[0].retryAt, { timeout: 5000 })
      .not.toBeNull();
    expect((await api(`/verifications/${lost}/webhooks`)).body.webhooks[0]).toMatchObject({
      success: false,
      reason: expect.stringMatching(/no answer/),
    });
    await api('/partners', 'PUT', { webhookUrl: receiverUrl });
  });
});
