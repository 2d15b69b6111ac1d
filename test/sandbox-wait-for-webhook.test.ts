// The webhooks of the local sandbox as a test drives them, with an in-process
// receiver: waits, faults, resend and the key that signs them (faults over a
// port: sandbox-cli's --webhook-faults).
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createPartnerClient } from '../src/partner.js';
import { createSandboxClient } from '../src/sandbox-client.js';
import { EmittedWebhooks, KEPT_WEBHOOKS } from '../src/sandbox/common/emitted-webhooks.js';
import { DELAY_MS } from '../src/sandbox/common/webhook-faults.js';
import { createSandboxFetch, type SandboxFetchOptions } from '../src/sandbox/fetch.js';
import { startSandbox } from '../src/sandbox/in-process.js';
import type { UserCreatedEvent, WebhookEvent } from '../src/webhooks/events.js';

const BASE = 'https://api.example.test';
const WEBHOOK_URL = 'https://partner.example/webhooks';
/** The body of a verification no other of the file's conflicts with. */
const verification = () => ({
  externalUserId: crypto.randomUUID(),
  redirectUrl: 'https://partner.example/done',
  requirements: [{ type: 'document' as const }],
});
/** A wait that should resolve: generous, as the machine may be loaded, and under the test timeout so a failed wait says why. */
const GENEROUS = { timeoutMs: 30_000 };

/**
 * A sandbox whose webhooks reach an in-process receiver answering
 * `receiver.status` (which the test may change), with what arrived, what was
 * emitted (its text, and when) and the delivery failures it reported.
 */
async function sandboxWithReceiver(options: SandboxFetchOptions = {}, receiver = { status: 200 }) {
  const arrivals: { body: string; eventId: string; signature: string; at: number }[] = [];
  const emitted: { eventId: string; text: string; at: number }[] = [];
  const failures: string[] = [];
  const sandbox = await createSandboxFetch({
    webhookUrl: WEBHOOK_URL,
    onDeliveryFailure: (line) => failures.push(line),
    onWebhook: (event, text) => emitted.push({ eventId: event.eventId, text, at: performance.now() }),
    fetch: async (request) => {
      const body = await request.text();
      arrivals.push({
        body,
        eventId: JSON.parse(body).eventId,
        signature: request.headers.get('x-signature') ?? '',
        at: performance.now(),
      });
      return new Response(null, { status: receiver.status });
    },
    ...options,
  });
  opened.push(sandbox);
  const partner = () => createPartnerClient({ baseUrl: BASE, authKey: sandbox.authKey, fetch: sandbox.fetch });
  const control = createSandboxClient({ baseUrl: BASE, fetch: sandbox.fetch });
  const create = async () => (await partner().POST('/verifications', { body: verification() })).data!.id;
  /** Opens the verification's link, and passes its scan when `scan` says so, through the control API. */
  const open = async (verificationId: string, scan?: 'pass') => {
    const params = { path: { verificationId } };
    const answers = [await control.POST('/_sandbox/verifications/{verificationId}/open', { params })];
    if (scan)
      answers.push(
        await control.POST('/_sandbox/verifications/{verificationId}/scan', { params, body: { outcome: scan } }),
      );
    expect(answers.map((a) => a.response.status)).toEqual(answers.map(() => 200));
  };
  const createAndOpen = async () => {
    const id = await create();
    await open(id);
    return id;
  };
  const resend = (eventId: string) =>
    control.POST('/_sandbox/webhooks/{eventId}/resend', { params: { path: { eventId } } });
  /** Resolves once `count` webhooks arrived; a generous bound, as the machine may be loaded. */
  const arrived = (count: number) =>
    expect.poll(() => arrivals.length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(count);
  return { sandbox, arrivals, emitted, failures, partner, control, create, open, createAndOpen, resend, arrived };
}

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const sandbox of opened.splice(0)) await sandbox.close();
});

const sign = (body: string, key: string) => createHmac('sha256', key).update(body).digest('hex');
const isCreated = (verificationId: string) => (e: WebhookEvent) =>
  e.eventType === 'verification.created' && e.data.verificationId === verificationId;
const isCompleted = (verificationId: string) => (e: WebhookEvent) =>
  e.eventType === 'verification.updated' && e.data.verificationId === verificationId && e.data.status === 'completed';

describe('waitForWebhook', () => {
  it('resolves with verification.updated, status completed, once the end user passes through the control API (no webhookUrl set)', async () => {
    const { sandbox, emitted, create, open } = await sandboxWithReceiver({ webhookUrl: undefined });
    const verificationId = await create();
    // Asked before the events exist: the wait is answered by what the control calls emit.
    const completed = sandbox.waitForWebhook(isCompleted(verificationId), GENEROUS);
    await open(verificationId, 'pass');
    const event = await completed;
    expect(event).toMatchObject({
      eventType: 'verification.updated',
      dataType: 'verification',
      data: { verificationId, status: 'completed' },
    });
    // What the wait resolves with is the body the sandbox signed, as onWebhook heard it.
    expect(emitted.map((e) => JSON.parse(e.text))).toContainEqual(event);
  });

  it('resolves at once with an event emitted before the call, and a type guard narrows it', async () => {
    const { sandbox, create, open } = await sandboxWithReceiver({ webhookUrl: undefined });
    const verificationId = await create();
    await open(verificationId, 'pass');
    // Already emitted, so even the shortest timeout does not reject it: the kept events are matched before any timer starts.
    const created = await sandbox.waitForWebhook(isCreated(verificationId), { timeoutMs: 1 });
    expect(created).toMatchObject({ eventType: 'verification.created', data: { verificationId } });
    const completed = await sandbox.waitForWebhook(isCompleted(verificationId), { timeoutMs: 1 });
    const isUser = (e: WebhookEvent): e is UserCreatedEvent =>
      e.eventType === 'user.created' && e.data.userId === (completed.data as { userId?: string }).userId;
    const user = await sandbox.waitForWebhook(isUser, { timeoutMs: 1 });
    // Typed as user.created by the guard: data.userId is read without a cast.
    expect(user.data.userId).toBe((completed.data as { userId?: string }).userId);
  });

  it('rejects a predicate never matched after its timeout, naming what it waited for, what was emitted and what to check', async () => {
    const { sandbox, create } = await sandboxWithReceiver({ webhookUrl: undefined });
    await create();
    const wait = sandbox.waitForWebhook((e) => e.eventType === 'shareholder.verified', { timeoutMs: 50 });
    // The message holds the predicate's source and the types emitted.
    await expect(wait).rejects.toThrow(/shareholder\.verified.*verification\.created/);
  });

  it('ends a wait with the error its predicate throws, and refuses a wait without a predicate or with a bad timeout', async () => {
    const { sandbox, create } = await sandboxWithReceiver({ webhookUrl: undefined });
    await create();
    await expect(
      sandbox.waitForWebhook(() => {
        throw new Error('the predicate broke');
      }, GENEROUS),
    ).rejects.toThrow('the predicate broke');
    expect(() => sandbox.waitForWebhook(undefined as never)).toThrow(/^waitForWebhook: /);
    expect(() => sandbox.waitForWebhook(() => true, { timeoutMs: -1 })).toThrow(/^waitForWebhook: timeoutMs /);
  });
});

describe('waitForDelivery', () => {
  it('resolves once the receiver answered 200 after a 500, not when the webhook was emitted', async () => {
    const receiver = { status: 500 };
    const { sandbox, arrivals, failures, partner, control, create } = await sandboxWithReceiver({}, receiver);
    const verificationId = await create();
    await sandbox.waitForWebhook(isCreated(verificationId), GENEROUS);
    let delivered = false;
    const delivery = sandbox.waitForDelivery(isCreated(verificationId), GENEROUS);
    void delivery.then(() => (delivered = true));
    // The first attempt was answered 500 and recorded as failed: the event was emitted, not delivered.
    await expect
      .poll(() => failures.some((line) => line.includes('answered 500')), { timeout: GENEROUS.timeoutMs })
      .toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(delivered).toBe(false);

    receiver.status = 200;
    const advanced = await control.POST('/_sandbox/clock/advance', { body: { minutes: 15 } });
    expect(advanced.response.status).toBe(200);
    const event = await delivery;
    expect(event).toMatchObject({ eventType: 'verification.created', data: { verificationId } });
    expect(arrivals).toHaveLength(2);
    // The delivery is recorded by the time the wait resolves: the history says it succeeded.
    const history = await partner().GET('/verifications/{verificationId}/webhooks', {
      params: { path: { verificationId } },
    });
    expect(history.data?.webhooks.find((w) => w.payload.eventType === 'verification.created')?.success).toBe(true);
    // Delivered before the call counts: a later wait resolves at once.
    await expect(sandbox.waitForDelivery(isCreated(verificationId), { timeoutMs: 1 })).resolves.toEqual(event);
  });

  it('rejects at its timeout naming the failed attempts, the address and what the receiver answered', async () => {
    const { sandbox, failures, create } = await sandboxWithReceiver({}, { status: 503 });
    const verificationId = await create();
    await expect.poll(() => failures.length, { timeout: GENEROUS.timeoutMs }).toBeGreaterThan(0);
    const wait = sandbox.waitForDelivery(isCreated(verificationId), { timeoutMs: 50 });
    await expect(wait).rejects.toThrow(/verification\.created \S+ to \S+\/webhooks\b.*\b503\b/);
  });

  it('rejects saying no delivery was attempted when no webhookUrl is set, though the webhook was emitted', async () => {
    const { sandbox, create } = await sandboxWithReceiver({ webhookUrl: undefined });
    const verificationId = await create();
    await sandbox.waitForWebhook(isCreated(verificationId), GENEROUS);
    await expect(sandbox.waitForDelivery(isCreated(verificationId), { timeoutMs: 50 })).rejects.toThrow(/webhookUrl/);
  });
});

describe('the events a wait matches against', () => {
  const event = (n: number) => ({ eventType: n === 0 ? 'user.created' : 'user.updated', n });

  it(`keeps the last ${KEPT_WEBHOOKS}: an older one no longer matches, and the rejection says why`, async () => {
    const emitted = new EmittedWebhooks<ReturnType<typeof event>>();
    const emit = emitted.listener();
    for (let n = 0; n <= KEPT_WEBHOOKS; n++) emit(undefined, JSON.stringify(event(n)));
    expect(await emitted.waitFor((e) => e.n === 1, { timeoutMs: 1 })).toEqual(event(1));
    await expect(emitted.waitFor((e) => e.n === 0, { timeoutMs: 1 })).rejects.toThrow(/kept/);
  });

  it('rejects the waits pending when the sandbox closes, and later waits that nothing kept matches', async () => {
    const sandbox = await createSandboxFetch({ onDeliveryFailure: () => undefined });
    const pending = sandbox.waitForWebhook((e) => e.eventType === 'user.deleted', GENEROUS);
    sandbox.close();
    await expect(pending).rejects.toThrow(/user\.deleted.*closed/);
    await expect(sandbox.waitForWebhook(() => true, GENEROUS)).rejects.toThrow(/closed/);
  });
});

describe('webhookFaults', () => {
  it('duplicate: every event arrives twice, the same signed bytes and eventId', async () => {
    const { sandbox, arrivals, emitted, createAndOpen, arrived } = await sandboxWithReceiver({
      webhookFaults: ['duplicate'],
    });
    await createAndOpen();
    expect(emitted).toHaveLength(2); // verification.created, then verification.updated (started)
    await arrived(4);
    for (const { eventId } of emitted) {
      const copies = arrivals.filter((a) => a.eventId === eventId);
      expect(copies).toHaveLength(2);
      expect(copies[0].body).toBe(copies[1].body);
      expect(copies.map((c) => c.signature)).toEqual([
        sign(copies[0].body, sandbox.authKey),
        sign(copies[0].body, sandbox.authKey),
      ]);
    }
  });

  it('reorder: a batch arrives in another order than generated, each event once', async () => {
    const { emitted, arrivals, createAndOpen, arrived } = await sandboxWithReceiver({ webhookFaults: ['reorder'] });
    // Five verifications created and opened within the 1 s window: ten events in one batch.
    await Promise.all(Array.from({ length: 5 }, createAndOpen));
    await arrived(10);
    expect(arrivals.map((a) => a.eventId).sort()).toEqual(emitted.map((e) => e.eventId).sort());
    expect(arrivals.map((a) => a.eventId)).not.toEqual(emitted.map((e) => e.eventId));
  });

  it(`delay: no event arrives sooner than ${DELAY_MS / 1000} s after it was emitted`, async () => {
    const { emitted, arrivals, createAndOpen, arrived } = await sandboxWithReceiver({ webhookFaults: ['delay'] });
    await createAndOpen();
    await arrived(2);
    for (const arrival of arrivals) {
      const emittedAt = emitted.find((e) => e.eventId === arrival.eventId)!.at;
      expect(arrival.at - emittedAt).toBeGreaterThanOrEqual(DELAY_MS - 50);
    }
  });

  it('is refused, naming the faults, when a name is not one (both doors)', async () => {
    for (const start of [createSandboxFetch, startSandbox]) {
      await expect(start({ webhookFaults: ['duplicated' as never] })).rejects.toThrow(/duplicate, reorder, delay/);
      await expect(start({ webhookFaults: 'duplicate' as never })).rejects.toThrow(/webhookFaults/);
    }
  });
});

describe('POST /_sandbox/webhooks/{eventId}/resend', () => {
  it('delivers a past event again, the same body and eventId, signed with the key active now, and answers 202 saying what and where', async () => {
    const { sandbox, arrivals, emitted, partner, resend, createAndOpen, arrived } = await sandboxWithReceiver();
    await createAndOpen();
    await arrived(2);
    const first = arrivals.find((a) => a.eventId === emitted[0].eventId)!;
    const oldKey = sandbox.authKey;
    const rotated = await partner().POST('/auth-keys', { body: {} });
    expect(rotated.response.status).toBe(201);
    expect(sandbox.authKey).not.toBe(oldKey);

    const { data, response } = await resend(first.eventId);
    expect(response.status).toBe(202);
    expect(data).toEqual({ eventId: first.eventId, eventType: 'verification.created', webhookUrl: WEBHOOK_URL });
    await arrived(3);
    const again = arrivals[2];
    expect(again.body).toBe(first.body);
    expect(again.signature).toBe(sign(first.body, sandbox.authKey));
    expect(again.signature).not.toBe(sign(first.body, oldKey));
  });

  it('answers 404 for an eventId no webhook has, naming where the sent ones are listed', async () => {
    const { resend } = await sandboxWithReceiver();
    const { error, response } = await resend('no-such-event');
    expect(response.status).toBe(404);
    expect(error?.message).toContain('GET /verifications/{verificationId}/webhooks');
  });

  it('answers 409 when no webhookUrl is set, saying how to set one, and sends nothing', async () => {
    const { resend, createAndOpen, emitted, arrivals } = await sandboxWithReceiver({ webhookUrl: undefined });
    await createAndOpen();
    const { error, response } = await resend(emitted[0].eventId);
    expect(response.status).toBe(409);
    expect(error?.message).toContain('PUT /partners');
    expect(arrivals).toEqual([]);
  });
});

// The fetch door is asked at another host than its url: it answers any, being reached in-process only.
describe('authKey, through both doors', () => {
  it.each([
    ['startSandbox', async () => ({ sandbox: await startSandbox(), base: undefined, fetch: undefined })],
    [
      'createSandboxFetch',
      async () => {
        const sandbox = await createSandboxFetch();
        return { sandbox, base: 'https://elsewhere.example', fetch: sandbox.fetch };
      },
    ],
  ])('%s follows a key rotation: the new key is accepted, the old one refused saying so', async (_, start) => {
    const { sandbox, base = sandbox.url, fetch } = await start();
    opened.push(sandbox);
    const before = sandbox.authKey;
    const partner = createPartnerClient({ baseUrl: base, authKey: before, fetch });
    const rotated = await partner.POST('/auth-keys', { body: {} });
    expect(rotated.response.status).toBe(201);
    expect(sandbox.authKey).toBe(rotated.data!.authKeys.find((k) => k.active)?.key);
    expect(sandbox.authKey).not.toBe(before);
    const withNew = createPartnerClient({ baseUrl: base, authKey: sandbox.authKey, fetch });
    expect((await withNew.GET('/partners')).response.status).toBe(200);
    const old = await partner.GET('/partners');
    expect(old.response.status).toBe(401);
    expect(old.response.headers.get('x-sandbox-reason')).toMatch(/rotated away/);
    // Its waits are the core's, whichever door: they see what it emits.
    const { data } = await withNew.POST('/verifications', { body: verification() });
    await expect(sandbox.waitForWebhook(isCreated(data!.id), GENEROUS)).resolves.toMatchObject({
      data: { verificationId: data!.id },
    });
  });
});
