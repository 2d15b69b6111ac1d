// Webhook delivery: at least once, each event on its own (the documents give no
// order), a bounded number in flight, only once its change is saved, and what a
// careful provider guards against. Retries after a clock advance:
// sandbox-wait-for-webhook; pending events after a restart: sandbox-state.
import { afterEach, describe, expect, it } from 'vitest';
import type { components } from '../generated/types/partner.js';
import { sandboxCommand } from '../src/cli/sandbox.js';
import { createSandboxFetch } from '../src/sandbox/fetch.js';
import { startSandbox } from '../src/sandbox/in-process.js';
import { emittedEvent } from '../src/sandbox/partner/api.js';
import { DELIVERIES_IN_FLIGHT, WebhookDelivery } from '../src/sandbox/partner/delivery.js';
import { serveSandbox } from '../src/sandbox/server.js';
import { fetchCalls, type ServeOptions, send, startReceiver } from './helpers/served-sandbox.js';
import { askCore, sandboxCore } from './helpers/wrapped-core.js';

const RECEIVER = 'http://receiver.test/hooks';
const WITH_PASSWORD = 'http://partner:secret@127.0.0.1:9/hooks';

const closers: (() => unknown)[] = [];
// Last opened, first closed: a sandbox stops before the receiver it delivers to.
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

let n = 0;
/** The body of a create no other of the file's creates conflicts with. */
const createBody = () => {
  n += 1;
  return JSON.stringify({
    externalUserId: crypto.randomUUID(),
    redirectUrl: 'https://partner.example.com/kyc/done',
    phoneNumbers: [{ phoneNumber: `+4917${String(50_000_000 + n)}`, isVerified: false }],
  });
};

// --- WebhookDelivery alone, with an in-process receiver -------------------

/** An event of `eventType` about the verification `verificationId`. */
function event(eventType: string, verificationId: string) {
  n += 1;
  const eventId = `event-${n}`;
  const dataType = eventType.split('.')[0];
  const data = { verificationId };
  return emittedEvent(
    JSON.stringify({ eventId, eventType, dataType, createdAt: new Date().toISOString(), data }),
    eventId,
  );
}

const settle = () => new Promise((r) => setTimeout(r, 60));

// That a failed event holds back none after it, of its verification either, is
// shown over HTTP below ("a verification's later event while …").
describe('WebhookDelivery', () => {
  it('a reset drops what waits; an attempt in flight and an event waiting for its save then end without effect', async () => {
    // The receiver is a list of calls the test answers.
    const calls: { eventId: string; answer: (status: number) => void; answered?: boolean }[] = [];
    const recorded: Array<[string, boolean]> = [];
    const delivery = new WebhookDelivery({
      clock: { now: () => new Date() },
      target: () => 'http://receiver.test/hooks',
      authKey: () => 'sbx_key',
      retryIntervalMs: 30,
      record: (eventId, result) => void recorded.push([eventId, result.success]),
      fetch: async (request) => {
        const { eventId } = JSON.parse(await request.text());
        const status = await new Promise<number>((answer) => calls.push({ eventId, answer }));
        return new Response(null, { status });
      },
    });
    closers.push(() => delivery.close());
    const sent = () => calls.map((c) => c.eventId);
    /** Answers the attempt of `eventId` in flight, once it is. */
    const answer = async (eventId: string, status = 200) => {
      const open = () => calls.find((c) => c.eventId === eventId && !c.answered);
      await expect.poll(open).toBeDefined();
      const call = open()!;
      call.answered = true;
      call.answer(status);
    };
    let onDisk = () => {};
    const saved = new Promise<void>((r) => (onDisk = r));
    const [a1, a2] = [event('verification.created', 'a'), event('verification.updated', 'a')];
    delivery.enqueue(a1);
    delivery.enqueue(a2, saved);
    await expect.poll(() => sent()).toEqual([a1.eventId]);
    delivery.clear();
    onDisk();
    const a3 = event('verification.created', 'a');
    delivery.enqueue(a3);
    await answer(a3.eventId, 500);
    await answer(a1.eventId, 500);
    await expect.poll(() => sent().filter((id) => id === a3.eventId).length).toBe(2);
    await settle();
    expect(sent()).not.toContain(a2.eventId);
    // a1's failure after the reset was neither recorded nor retried.
    expect(recorded.map(([id]) => id)).not.toContain(a1.eventId);
    expect(sent().filter((id) => id === a1.eventId)).toHaveLength(1);
  });
});

// --- The sandbox over HTTP, with a loopback receiver -----------------------

/** A receiver answering each delivery as `answer` says, closed after the test. */
async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
  const hooks = await startReceiver(answer);
  closers.push(hooks.close);
  return hooks;
}

/** A sandbox, delivering to `webhookUrl` when given (set through PUT /partners), closed after the test. */
async function sandboxFor(options: ServeOptions, webhookUrl?: string) {
  const sandbox = await serveSandbox({ port: 0, onDeliveryFailure: () => {}, ...options });
  closers.unshift(() => sandbox.close());
  const call = (target: string, method = 'GET', body?: unknown) =>
    send(sandbox.url, sandbox.partner.activeAuthKey(), method, target, body);
  if (webhookUrl) expect((await call('/partners', 'PUT', { webhookUrl })).status).toBe(200);
  const create = async () => (await call('/verifications', 'POST', createBody())).body.id as string;
  const open = (id: string) => call(`/_sandbox/verifications/${id}/open`, 'POST', {});
  const history = async (id: string) =>
    (await call(`/verifications/${id}/webhooks`)).body.webhooks as components['schemas']['VerificationWebhookRecord'][];
  return { call, create, open, history };
}

describe('the sandbox delivers', () => {
  it("a verification's later event while its verification.created waits for a retry", async () => {
    let failing = true;
    const hooks = await receiver(({ event }) => (failing && event.eventType === 'verification.created' ? 500 : 200));
    const { create, open, history } = await sandboxFor({ webhookUrl: '', retryIntervalSeconds: 0.3 }, hooks.url);
    const id = await create();
    await expect.poll(() => hooks.arrivals.length).toBeGreaterThan(0);
    await open(id);
    const [created, opened] = (await history(id)).map((w) => w.payload.eventId);
    // The update is delivered while the creation is still failing: no order is promised, so nothing waits.
    await expect
      .poll(async () => (await history(id)).find((w) => w.payload.eventId === opened)?.success, { timeout: 5000 })
      .toBe(true);
    expect((await history(id)).find((w) => w.payload.eventId === created)?.success).toBe(false);
    failing = false;
    await expect.poll(async () => (await history(id)).every((w) => w.success), { timeout: 5000 }).toBe(true);
    const arrivals = hooks.arrivals.map((a) => a.event.eventId);
    expect(arrivals.indexOf(opened)).toBeLessThan(arrivals.lastIndexOf(created));
  });

  it('retries an unanswered delivery on the interval, updating the one record in place', async () => {
    const hooks = await receiver(({ attempt }) => (attempt < 3 ? 503 : 200));
    const failures: string[] = [];
    const { create, history } = await sandboxFor(
      { retryIntervalSeconds: 0.2, onDeliveryFailure: (line) => failures.push(line) },
      hooks.url,
    );
    const id = await create();
    await expect.poll(() => hooks.arrivals.length, { timeout: 5000 }).toBe(1);
    const first = await history(id);
    expect(first).toHaveLength(1);
    const [record] = first;
    await expect.poll(async () => (await history(id))[0].retryAt, { timeout: 5000 }).not.toBeNull();
    const [failing] = await history(id);
    expect(failing).toMatchObject({ id: record.id, success: false });
    expect(Date.parse(failing.retryAt!)).toBeGreaterThan(Date.parse(failing.updatedAt) - 1);
    await expect.poll(() => hooks.attempts.get(record.payload.eventId), { timeout: 5000 }).toBe(3);
    await expect.poll(async () => (await history(id))[0].success, { timeout: 5000 }).toBe(true);
    const delivered = await history(id);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ id: record.id, success: true, retryAt: null });
    expect(Date.parse(delivered[0].updatedAt)).toBeGreaterThan(Date.parse(record.updatedAt));
    expect(hooks.arrivals.map((a) => a.event)).toEqual([record.payload, record.payload, record.payload]);
    // One line per failed attempt: what, where, why and when it is retried.
    const lines = failures.filter((l) => l.includes(record.payload.eventId));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`verification.created ${record.payload.eventId} to ${hooks.url}`);
    expect(lines[0]).toMatch(/\b503\b.*\d{4}-\d\d-\d\dT[\d:.]+Z/);
  });

  it(`answers API calls while the receiver holds deliveries, up to ${DELIVERIES_IN_FLIGHT} of them at once, and records a dead receiver as a failure`, async () => {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const hooks = await receiver((_arrival, res) => void held.then(() => res.writeHead(200).end()));
    const { call, create, open, history } = await sandboxFor({}, hooks.url);
    const id = await create();
    await expect.poll(() => hooks.arrivals.length).toBe(1);
    // The receiver has not answered yet, and the API still does.
    expect((await call(`/verifications/${id}`)).status).toBe(200);
    expect((await open(id)).status).toBe(200);
    // More events than may be in flight: the held receiver gets that many, no more, until it answers.
    for (let i = 2; i < DELIVERIES_IN_FLIGHT * 2; i++) await create();
    await expect.poll(() => hooks.arrivals.length).toBe(DELIVERIES_IN_FLIGHT);
    await settle();
    expect(hooks.arrivals.length).toBe(DELIVERIES_IN_FLIGHT);
    release();
    await expect.poll(() => hooks.arrivals.length).toBe(DELIVERIES_IN_FLIGHT * 2);

    await call('/partners', 'PUT', { webhookUrl: 'http://127.0.0.1:9/closed' });
    const lost = await create();
    await expect.poll(async () => (await history(lost))[0].retryAt, { timeout: 5000 }).not.toBeNull();
    expect((await history(lost))[0]).toMatchObject({ success: false, reason: expect.stringMatching(/no answer/) });
  });
});

describe('an attempt that gets no answer', () => {
  it('counts as failed at the delivery timeout even when the fetch never settles and ignores its abort signal', async () => {
    let hung = true;
    const attempted = new Set<string>();
    const delivered = new Set<string>();
    const sandbox = await createSandboxFetch({
      webhookUrl: RECEIVER,
      deliveryTimeoutSeconds: 0.1,
      retryIntervalSeconds: 0.2,
      onDeliveryFailure: () => {},
      fetch: async (request) => {
        const { eventId } = JSON.parse(await request.text());
        attempted.add(eventId);
        // Never settles, whatever the signal says: what some aborted fetches do on Node 20.
        if (hung) return new Promise<Response>(() => {});
        delivered.add(eventId);
        return new Response(null, { status: 200 });
      },
    });
    closers.push(() => sandbox.close());
    // More events than attempts may be in flight: the later ones need the slots the hung ones held.
    const ids: string[] = [];
    const call = fetchCalls(sandbox);
    for (let i = 0; i < 40; i++) ids.push((await call('POST', '/verifications', createBody())).body.id);
    await expect.poll(() => attempted.size, { timeout: 10_000 }).toBe(40);
    const [first] = (await call('GET', `/verifications/${ids[0]}/webhooks`)).body.webhooks;
    expect(first).toMatchObject({ success: false, reason: 'no answer within 0.1 s (the delivery timeout)' });
    hung = false;
    await expect.poll(() => delivered.size, { timeout: 10_000 }).toBe(40);
    for (const id of ids) {
      await expect
        .poll(async () => (await call('GET', `/verifications/${id}/webhooks`)).body.webhooks[0].success)
        .toBe(true);
    }
  });
});

describe('a receiver answering with a redirect', () => {
  it('gets a failed attempt, recorded with its status, and the address it names receives nothing', async () => {
    const elsewhere = await receiver();
    const redirecting = await receiver((_arrival, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/stolen` }).end();
      return undefined;
    });
    const failures: string[] = [];
    const onDeliveryFailure = (line: string) => failures.push(line);
    const { create, history } = await sandboxFor({ retryIntervalSeconds: 60, onDeliveryFailure }, redirecting.url);
    const id = await create();
    await expect.poll(async () => (await history(id))[0].retryAt, { timeout: 5000 }).not.toBeNull();
    const [attempt] = await history(id);
    expect(attempt).toMatchObject({ success: false, reason: expect.stringMatching(/\b307\b/) });
    expect(failures[0]).toContain(attempt.reason);
    expect(elsewhere.arrivals).toEqual([]);
  });
});

describe('a receiver answering 401', () => {
  it('gets a failed attempt whose line says where the key in force is', async () => {
    const refusing = await receiver(() => 401);
    const failures: string[] = [];
    const onDeliveryFailure = (line: string) => failures.push(line);
    const { create } = await sandboxFor({ retryIntervalSeconds: 60, onDeliveryFailure }, refusing.url);
    await create();
    await expect.poll(() => failures.length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(failures[0]).toMatch(/answered 401.*X-SIGNATURE.*\/_sandbox\/credentials/);
  });
});

describe('the webhook address GET /partners shows while none is set', () => {
  it('put back as it is (a read-modify-write of the partner), still sends no webhook; put over an address, is one', async () => {
    const sent: Request[] = [];
    const fetch = async (request: Request) => {
      sent.push(request);
      return new Response(null, { status: 200 });
    };
    const sandbox = await createSandboxFetch({ fetch });
    closers.push(() => sandbox.close());
    const call = fetchCalls(sandbox);
    const { webhookUrl } = (await call('GET', '/partners')).body;
    expect((await call('PUT', '/partners', JSON.stringify({ webhookUrl }))).body.webhookUrl).toBe(webhookUrl);
    expect((await call('POST', '/verifications', createBody())).status).toBe(201);
    await expect(sandbox.waitForDelivery(() => true, { timeoutMs: 300 })).rejects.toThrow();
    expect(sent).toEqual([]);
    // Over a real address it is an address like any other: retries already due are not dropped.
    await call('PUT', '/partners', JSON.stringify({ webhookUrl: RECEIVER }));
    await call('PUT', '/partners', JSON.stringify({ webhookUrl }));
    await call('POST', '/verifications', createBody());
    await expect.poll(() => sent.map((request) => request.url)).toContain(webhookUrl);
  });
});

describe('a webhook address with a user or password', () => {
  it('is refused by PUT /partners with 400, naming the rule, and the address stays as it was', async () => {
    const sandbox = await createSandboxFetch({
      webhookUrl: RECEIVER,
      fetch: async () => new Response(null, { status: 200 }),
    });
    closers.push(() => sandbox.close());
    const call = fetchCalls(sandbox);
    for (const webhookUrl of [WITH_PASSWORD, 'https://partner@hooks.example.com/in']) {
      const refused = await call('PUT', '/partners', JSON.stringify({ webhookUrl }));
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^webhookUrl refused: .*X-SIGNATURE/);
    }
    expect((await call('GET', '/partners')).body.webhookUrl ?? RECEIVER).toBe(RECEIVER);
  });

  it.each([
    ['startSandbox', () => startSandbox({ webhookUrl: WITH_PASSWORD })],
    ['createSandboxFetch', () => createSandboxFetch({ webhookUrl: WITH_PASSWORD })],
    ['the server', () => serveSandbox({ port: 0, webhookUrl: WITH_PASSWORD })],
    ['the sandbox command', () => sandboxCommand(['--port', '0', '--webhook-url', WITH_PASSWORD], () => undefined)],
  ])('is refused as an option of %s, naming the rule, before anything starts', async (_, start) => {
    await expect(start()).rejects.toThrow(/refused: .*X-SIGNATURE/);
  });
});

describe('with --state', () => {
  it('sends no webhook about a change before the change is on disk, nor one whose change was not saved', async () => {
    const sent: string[] = [];
    const failures: string[] = [];
    let onDisk = () => {};
    const written = new Promise<void>((r) => (onDisk = r));
    let save = () => written;
    // The core as the server builds it with --state, its commit resolving when the file's fsync would.
    const core = sandboxCore({
      webhookUrl: RECEIVER,
      onDeliveryFailure: (line) => failures.push(line),
      fetch: async (request) => {
        sent.push(JSON.parse(await request.text()).eventType);
        return new Response(null, { status: 200 });
      },
      commit: (answer) => save().then(() => answer),
    });
    closers.push(() => core.delivery.close());
    const answered = askCore(core, 'POST', '/verifications', createBody());
    await new Promise((r) => setTimeout(r, 200));
    expect(sent).toEqual([]);
    onDisk();
    expect((await answered)?.status).toBe(201);
    await expect.poll(() => sent).toEqual(['verification.created']);
    save = () => Promise.reject(new Error('the disk is full'));
    await askCore(core, 'POST', '/verifications', createBody());
    await settle();
    expect(sent).toEqual(['verification.created']);
    expect(failures).toEqual([expect.stringMatching(/^webhook verification\.created \S+ .*the disk is full/)]);
  });
});
