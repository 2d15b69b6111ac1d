// `waitForWebhook` and the `authKey` that follows a rotation, through both
// in-process doors (`startSandbox` on a port, `createSandboxFetch` with
// none): a wait for an event the control API causes, one for an event
// already emitted, one that never matches and rejects naming what was
// emitted, and the key after `POST /auth-keys` used for a request. Also the
// bound on the events kept and the waits a close ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient } from '../src/partner.js';
import { createSandboxClient } from '../src/sandbox-client.js';
import { EmittedWebhooks, KEPT_WEBHOOKS } from '../src/sandbox/common/emitted-webhooks.js';
import { createSandboxFetch } from '../src/sandbox/fetch.js';
import { startSandbox, type RunningSandbox } from '../src/sandbox/in-process.js';
import type { UserCreatedEvent, WebhookEvent } from '../src/webhooks/events.js';

/** A wait that should resolve: generous, as the machine may be loaded, and under the test timeout so a failed wait names what was emitted. */
const GENEROUS = { timeoutMs: 30_000 };

interface Door {
  sandbox: Pick<RunningSandbox, 'authKey' | 'waitForWebhook'>;
  baseUrl: string;
  fetch?: (request: Request) => Promise<Response>;
  /** What `onWebhook` heard, as signed text. */
  heard: string[];
  close(): Promise<void> | void;
}

const doors: [string, () => Promise<Door>][] = [
  [
    'startSandbox (on a port)',
    async () => {
      const heard: string[] = [];
      const sandbox = await startSandbox({
        onWebhook: (_event, body) => heard.push(body),
        onDeliveryFailure: () => undefined,
      });
      return { sandbox, baseUrl: sandbox.url, heard, close: () => sandbox.close() };
    },
  ],
  [
    'createSandboxFetch (no port)',
    async () => {
      const heard: string[] = [];
      const sandbox = await createSandboxFetch({
        onWebhook: (_event, body) => heard.push(body),
        onDeliveryFailure: () => undefined,
      });
      return {
        sandbox,
        baseUrl: 'https://api.example.test',
        fetch: sandbox.fetch,
        heard,
        close: () => sandbox.close(),
      };
    },
  ],
];

describe.each(doors)('%s', (_name, open) => {
  let door: Door;
  beforeAll(async () => {
    door = await open();
  });
  afterAll(() => door.close());

  const clients = () => ({
    partner: createPartnerClient({
      baseUrl: door.baseUrl,
      authKey: door.sandbox.authKey,
      ...(door.fetch ? { fetch: door.fetch } : {}),
    }),
    control: createSandboxClient({ baseUrl: door.baseUrl, ...(door.fetch ? { fetch: door.fetch } : {}) }),
  });
  const createVerification = async () => {
    const { data, response } = await clients().partner.POST('/verifications', {
      body: {
        externalUserId: crypto.randomUUID(),
        redirectUrl: 'https://partner.example/done',
        requirements: [{ type: 'document' }],
      },
    });
    expect(response.status).toBe(201);
    return data!.id;
  };

  it('resolves with verification.updated, status completed, once the end user passes through the control API (no webhookUrl set)', async () => {
    const verificationId = await createVerification();
    // Asked before the events exist: the wait is answered by what the control calls emit.
    const completed = door.sandbox.waitForWebhook(
      (e) =>
        e.eventType === 'verification.updated' &&
        e.data.verificationId === verificationId &&
        e.data.status === 'completed',
      GENEROUS,
    );
    const { control } = clients();
    const opened = await control.POST('/_sandbox/verifications/{verificationId}/open', {
      params: { path: { verificationId } },
    });
    const scanned = await control.POST('/_sandbox/verifications/{verificationId}/scan', {
      params: { path: { verificationId } },
      body: { outcome: 'pass' },
    });
    expect([opened.response.status, scanned.response.status]).toEqual([200, 200]);
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
    const verificationId = await createVerification();
    const { control } = clients();
    await control.POST('/_sandbox/verifications/{verificationId}/open', { params: { path: { verificationId } } });
    await control.POST('/_sandbox/verifications/{verificationId}/scan', {
      params: { path: { verificationId } },
      body: { outcome: 'pass' },
    });
    // Already emitted, so even the shortest timeout does not reject it: the kept events are matched before any timer starts.
    const created = await door.sandbox.waitForWebhook(
      (e) => e.eventType === 'verification.created' && e.data.verificationId === verificationId,
      { timeoutMs: 1 },
    );
    expect(created).toMatchObject({ eventType: 'verification.created', data: { verificationId } });
    const completed = await door.sandbox.waitForWebhook(
      (e) =>
        e.eventType === 'verification.updated' &&
        e.data.verificationId === verificationId &&
        e.data.status === 'completed',
      { timeoutMs: 1 },
    );
    const isUser = (e: WebhookEvent): e is UserCreatedEvent =>
      e.eventType === 'user.created' && e.data.userId === (completed.data as { userId?: string }).userId;
    const user = await door.sandbox.waitForWebhook(isUser, { timeoutMs: 1 });
    // Typed as user.created by the guard: data.userId is read without a cast.
    expect(user.data.userId).toBe((completed.data as { userId?: string }).userId);
  });

  it('rejects a predicate never matched after its timeout, naming what it waited for, what was emitted and what to check', async () => {
    await createVerification();
    const wait = door.sandbox.waitForWebhook((e) => e.eventType === 'shareholder.verified', { timeoutMs: 50 });
    await expect(wait).rejects.toThrow(
      /^waitForWebhook: waited for a webhook matching \(e\) => e\.eventType === ["']shareholder\.verified["'], but none was emitted within 50 ms; \d+ were emitted \(verification\.created ×\d+, /,
    );
    await expect(wait).rejects.toThrow(
      /Check that the call that emits it ran and was answered 2xx .*give a longer timeoutMs/,
    );
  });

  it('ends a wait with the error its predicate throws, and refuses a wait without a predicate or with a bad timeout', async () => {
    await createVerification();
    await expect(
      door.sandbox.waitForWebhook(() => {
        throw new Error('the predicate broke');
      }, GENEROUS),
    ).rejects.toThrow('the predicate broke');
    expect(() => door.sandbox.waitForWebhook(undefined as never)).toThrow(
      /waitForWebhook: the first argument must be a function of the event/,
    );
    expect(() => door.sandbox.waitForWebhook(() => true, { timeoutMs: -1 })).toThrow(
      'waitForWebhook: timeoutMs must be a positive number of milliseconds, not -1',
    );
  });

  it('follows a key rotation: authKey is the new key, which the partner API accepts, and the old one is refused', async () => {
    const before = door.sandbox.authKey;
    const { partner } = clients();
    const rotated = await partner.POST('/auth-keys', { body: {} });
    expect(rotated.response.status).toBe(201);
    expect(door.sandbox.authKey).toBe(rotated.data!.authKeys.find((k) => k.active)?.key);
    expect(door.sandbox.authKey).not.toBe(before);
    const withNew = await clients().partner.GET('/partners');
    expect(withNew.response.status).toBe(200);
    const withOld = await partner.GET('/partners');
    expect(withOld.response.status).toBe(401);
  });
});

describe('the events a wait matches against', () => {
  const event = (n: number) => ({ eventType: n === 0 ? 'user.created' : 'user.updated', n });

  it(`keeps the last ${KEPT_WEBHOOKS}: an older one no longer matches, and the rejection says why`, async () => {
    const emitted = new EmittedWebhooks<ReturnType<typeof event>>();
    const emit = emitted.listener();
    for (let n = 0; n <= KEPT_WEBHOOKS; n++) emit(undefined, JSON.stringify(event(n)));
    expect(await emitted.waitFor((e) => e.n === 1, { timeoutMs: 1 })).toEqual(event(1));
    await expect(emitted.waitFor((e) => e.n === 0, { timeoutMs: 1 })).rejects.toThrow(
      `but none was emitted within 1 ms; ${KEPT_WEBHOOKS + 1} were emitted (user.created, user.updated ×${KEPT_WEBHOOKS}); only the last ${KEPT_WEBHOOKS} are kept to match.`,
    );
  });

  it('rejects the waits pending when the sandbox closes, and later waits that nothing kept matches', async () => {
    const sandbox = await createSandboxFetch({ onDeliveryFailure: () => undefined });
    const pending = sandbox.waitForWebhook((e) => e.eventType === 'user.deleted', GENEROUS);
    sandbox.close();
    await expect(pending).rejects.toThrow(
      /^waitForWebhook: waited for a webhook matching .*user\.deleted.*, but the sandbox was closed while it waited; no webhook was emitted at all\./,
    );
    await expect(sandbox.waitForWebhook(() => true, GENEROUS)).rejects.toThrow(
      'but the sandbox is closed, so no more webhooks will be emitted',
    );
  });
});
