// `waitForWebhook`, `waitForDelivery` and the `authKey` that follows a
// rotation, through startSandbox (createSandboxFetch wires the same waits:
// sandbox-fetch); also the bound on the events kept and the waits a close ends.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient } from '../src/partner.js';
import { createSandboxClient } from '../src/sandbox-client.js';
import { EmittedWebhooks, KEPT_WEBHOOKS } from '../src/sandbox/common/emitted-webhooks.js';
import { createSandboxFetch } from '../src/sandbox/fetch.js';
import { startSandbox } from '../src/sandbox/in-process.js';
import type { UserCreatedEvent, WebhookEvent } from '../src/webhooks/events.js';
import { startReceiver } from './helpers/served-sandbox.js';

/** A wait that should resolve: generous, as the machine may be loaded, and under the test timeout so a failed wait says why. */
const GENEROUS = { timeoutMs: 30_000 };

/** A receiver whose answer the test sets, counting what it was sent. */
interface Receiver {
  status: number;
  received: number;
}

/** A sandbox delivering to `receiver` when there is one (else no webhookUrl is set), with what `onWebhook` heard and the delivery failures it reported. */
async function open(receiver?: Receiver) {
  const [heard, failures] = [[] as string[], [] as string[]];
  const hooks =
    receiver &&
    (await startReceiver(() => {
      receiver.received += 1;
      return receiver.status;
    }));
  const sandbox = await startSandbox({
    ...(hooks ? { webhookUrl: hooks.url } : {}),
    onWebhook: (_event, body) => heard.push(body),
    onDeliveryFailure: (line) => failures.push(line),
  });
  const close = async () => {
    await sandbox.close();
    await hooks?.close();
  };
  return { sandbox, heard, failures, close };
}
type Door = Awaited<ReturnType<typeof open>>;

const clients = (door: Door) => ({
  partner: createPartnerClient({ baseUrl: door.sandbox.url, authKey: door.sandbox.authKey }),
  control: createSandboxClient({ baseUrl: door.sandbox.url }),
});
async function createVerification(door: Door) {
  const { data, response } = await clients(door).partner.POST('/verifications', {
    body: {
      externalUserId: crypto.randomUUID(),
      redirectUrl: 'https://partner.example/done',
      requirements: [{ type: 'document' }],
    },
  });
  expect(response.status).toBe(201);
  return data!.id;
}
/** Opens the verification's link and passes its scan, through the control API. */
async function pass(door: Door, verificationId: string) {
  const { control } = clients(door);
  const opened = await control.POST('/_sandbox/verifications/{verificationId}/open', {
    params: { path: { verificationId } },
  });
  const scanned = await control.POST('/_sandbox/verifications/{verificationId}/scan', {
    params: { path: { verificationId } },
    body: { outcome: 'pass' },
  });
  expect([opened.response.status, scanned.response.status]).toEqual([200, 200]);
}
const isCreated = (verificationId: string) => (e: WebhookEvent) =>
  e.eventType === 'verification.created' && e.data.verificationId === verificationId;
const isCompleted = (verificationId: string) => (e: WebhookEvent) =>
  e.eventType === 'verification.updated' && e.data.verificationId === verificationId && e.data.status === 'completed';

describe('waitForWebhook', () => {
  let door: Door;
  beforeAll(async () => {
    door = await open();
  });
  afterAll(() => door.close());

  it('resolves with verification.updated, status completed, once the end user passes through the control API (no webhookUrl set)', async () => {
    const verificationId = await createVerification(door);
    // Asked before the events exist: the wait is answered by what the control calls emit.
    const completed = door.sandbox.waitForWebhook(isCompleted(verificationId), GENEROUS);
    await pass(door, verificationId);
    const event = await completed;
    expect(event).toMatchObject({
      eventType: 'verification.updated',
      dataType: 'verification',
      data: { verificationId, status: 'completed' },
    });
    // What the wait resolves with is the body the sandbox signed, as onWebhook heard it.
    expect(door.heard.map((text) => JSON.parse(text))).toContainEqual(event);
  });

  it('resolves at once with an event emitted before the call, and a type guard narrows it', async () => {
    const verificationId = await createVerification(door);
    await pass(door, verificationId);
    // Already emitted, so even the shortest timeout does not reject it: the kept events are matched before any timer starts.
    const created = await door.sandbox.waitForWebhook(isCreated(verificationId), { timeoutMs: 1 });
    expect(created).toMatchObject({ eventType: 'verification.created', data: { verificationId } });
    const completed = await door.sandbox.waitForWebhook(isCompleted(verificationId), { timeoutMs: 1 });
    const isUser = (e: WebhookEvent): e is UserCreatedEvent =>
      e.eventType === 'user.created' && e.data.userId === (completed.data as { userId?: string }).userId;
    const user = await door.sandbox.waitForWebhook(isUser, { timeoutMs: 1 });
    // Typed as user.created by the guard: data.userId is read without a cast.
    expect(user.data.userId).toBe((completed.data as { userId?: string }).userId);
  });

  it('rejects a predicate never matched after its timeout, naming what it waited for, what was emitted and what to check', async () => {
    await createVerification(door);
    const wait = door.sandbox.waitForWebhook((e) => e.eventType === 'shareholder.verified', { timeoutMs: 50 });
    // The message holds the predicate's source and the types emitted.
    await expect(wait).rejects.toThrow(/shareholder\.verified.*verification\.created/);
  });

  it('ends a wait with the error its predicate throws, and refuses a wait without a predicate or with a bad timeout', async () => {
    await createVerification(door);
    await expect(
      door.sandbox.waitForWebhook(() => {
        throw new Error('the predicate broke');
      }, GENEROUS),
    ).rejects.toThrow('the predicate broke');
    expect(() => door.sandbox.waitForWebhook(undefined as never)).toThrow(/^waitForWebhook: /);
    expect(() => door.sandbox.waitForWebhook(() => true, { timeoutMs: -1 })).toThrow(/^waitForWebhook: timeoutMs /);
  });

  it('follows a key rotation: authKey is the new key, which the partner API accepts, and the old one is refused', async () => {
    const before = door.sandbox.authKey;
    const { partner } = clients(door);
    const rotated = await partner.POST('/auth-keys', { body: {} });
    expect(rotated.response.status).toBe(201);
    expect(door.sandbox.authKey).toBe(rotated.data!.authKeys.find((k) => k.active)?.key);
    expect(door.sandbox.authKey).not.toBe(before);
    const withNew = await clients(door).partner.GET('/partners');
    expect(withNew.response.status).toBe(200);
    const withOld = await partner.GET('/partners');
    expect(withOld.response.status).toBe(401);
  });
});

describe('waitForDelivery', () => {
  let door: Door | undefined;
  afterEach(() => door?.close());
  /** Opens the door, closed after the test. */
  const opened = async (receiver?: Receiver) => {
    door = await open(receiver);
    return door;
  };

  it('resolves once the receiver answered 200 after a 500, not when the webhook was emitted', async () => {
    const receiver = { status: 500, received: 0 };
    const d = await opened(receiver);
    const verificationId = await createVerification(d);
    await d.sandbox.waitForWebhook(isCreated(verificationId), GENEROUS);
    let delivered = false;
    const delivery = d.sandbox.waitForDelivery(isCreated(verificationId), GENEROUS);
    void delivery.then(() => (delivered = true));
    // The first attempt was answered 500 and recorded as failed: the event was emitted, not delivered.
    await expect
      .poll(() => d.failures.some((line) => line.includes('answered 500')), { timeout: GENEROUS.timeoutMs })
      .toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(delivered).toBe(false);

    receiver.status = 200;
    const advanced = await clients(d).control.POST('/_sandbox/clock/advance', { body: { minutes: 15 } });
    expect(advanced.response.status).toBe(200);
    const event = await delivery;
    expect(event).toMatchObject({ eventType: 'verification.created', data: { verificationId } });
    expect(receiver.received).toBe(2);
    // The delivery is recorded by the time the wait resolves: the history says it succeeded.
    const history = await clients(d).partner.GET('/verifications/{verificationId}/webhooks', {
      params: { path: { verificationId } },
    });
    expect(history.data?.webhooks.find((w) => w.payload.eventType === 'verification.created')?.success).toBe(true);
    // Delivered before the call counts: a later wait resolves at once.
    await expect(d.sandbox.waitForDelivery(isCreated(verificationId), { timeoutMs: 1 })).resolves.toEqual(event);
  });

  it('rejects at its timeout naming the failed attempts, the address and what the receiver answered', async () => {
    const d = await opened({ status: 503, received: 0 });
    const verificationId = await createVerification(d);
    await expect.poll(() => d.failures.length, { timeout: GENEROUS.timeoutMs }).toBeGreaterThan(0);
    const wait = d.sandbox.waitForDelivery(isCreated(verificationId), { timeoutMs: 50 });
    await expect(wait).rejects.toThrow(/verification\.created \S+ to \S+\/webhooks\b.*\b503\b/);
  });

  it('rejects saying no delivery was attempted when no webhookUrl is set, though the webhook was emitted', async () => {
    const d = await opened();
    const verificationId = await createVerification(d);
    await d.sandbox.waitForWebhook(isCreated(verificationId), GENEROUS);
    await expect(d.sandbox.waitForDelivery(isCreated(verificationId), { timeoutMs: 50 })).rejects.toThrow(/webhookUrl/);
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
