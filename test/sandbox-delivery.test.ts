// The delivery model (WebhookDelivery): at least once, in order per
// verification and per user across failed attempts, retries and restarts,
// several resources in flight at once, each result durable before the next
// event of its resource starts, and the attempt timeout.
import fs from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emittedEvent, type DeliveryResult } from '../src/sandbox/partner/api.js';
import { DELIVERIES_IN_FLIGHT, WebhookDelivery } from '../src/sandbox/partner/delivery.js';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';

// --- WebhookDelivery alone, with an in-process receiver -------------------

let n = 0;
/** An event of `eventType` whose data names `ids` (verificationId, userId). */
function event(eventType: string, ids: { verificationId?: string; userId?: string | null }) {
  n += 1;
  const eventId = `event-${n}`;
  const dataType = eventType.split('.')[0];
  return emittedEvent(JSON.stringify({ eventId, eventType, dataType, createdAt: new Date().toISOString(), data: ids }), eventId);
}

interface Call {
  eventId: string;
  answer: (status: number) => void;
  answered?: boolean;
}

/** A WebhookDelivery whose receiver is a list of calls the test answers. */
function harness(options: { record?: (eventId: string, result: DeliveryResult) => void | Promise<void>; attemptTimeoutMs?: number } = {}) {
  const calls: Call[] = [];
  const recorded: Array<[string, boolean]> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const delivery = new WebhookDelivery({
    clock: { now: () => new Date() },
    target: () => 'http://receiver.test/hooks',
    authKey: () => 'sbx_key',
    retryIntervalMs: 30,
    attemptTimeoutMs: options.attemptTimeoutMs,
    record: (eventId, result) => {
      recorded.push([eventId, result.success]);
      return options.record?.(eventId, result);
    },
    fetch: async (request) => {
      const { eventId } = JSON.parse(await request.text());
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const status = await new Promise<number>((answer) => calls.push({ eventId, answer }));
      inFlight -= 1;
      return new Response(null, { status });
    },
  });
  const sent = () => calls.map((c) => c.eventId);
  /** Answers the attempt of `eventId` in flight, once it is. */
  const answer = async (eventId: string, status = 200) => {
    const open = () => calls.find((c) => c.eventId === eventId && !c.answered);
    await expect.poll(open).toBeDefined();
    const call = open()!;
    call.answered = true;
    call.answer(status);
  };
  return { delivery, calls, sent, answer, recorded, maxInFlight: () => maxInFlight };
}

const deliveries: WebhookDelivery[] = [];
afterEach(() => {
  for (const d of deliveries.splice(0)) d.close();
});
function started(h: ReturnType<typeof harness>) {
  deliveries.push(h.delivery);
  return h;
}
const settle = () => new Promise((r) => setTimeout(r, 60));

describe('WebhookDelivery', () => {
  it("holds a verification's later events behind a failed one until its retry succeeds, and no other verification's", async () => {
    const h = started(harness());
    const [a1, a2, b1] = [event('verification.created', { verificationId: 'a' }), event('verification.updated', { verificationId: 'a' }), event('verification.created', { verificationId: 'b' })];
    for (const e of [a1, a2, b1]) h.delivery.enqueue(e);
    const ofA = () => h.sent().filter((id) => id === a1.eventId || id === a2.eventId);
    // Attempts of different verifications start together, in either order.
    await expect.poll(() => [...h.sent()].sort()).toEqual([a1.eventId, b1.eventId].sort());
    await h.answer(a1.eventId, 500);
    await h.answer(b1.eventId, 200);
    // The retry of a1 comes on the interval; a2 waits for it.
    await expect.poll(() => ofA()).toEqual([a1.eventId, a1.eventId]);
    await settle();
    expect(h.sent()).not.toContain(a2.eventId);
    await h.answer(a1.eventId, 200);
    await expect.poll(() => ofA()).toEqual([a1.eventId, a1.eventId, a2.eventId]);
    await h.answer(a2.eventId);
    await expect.poll(() => h.recorded.filter(([, ok]) => ok).map(([id]) => id)).toEqual([b1.eventId, a1.eventId, a2.eventId]);
  });

  it("a receiver holding one verification's event holds none of another's", async () => {
    const h = started(harness());
    const [a1, a2] = [event('verification.created', { verificationId: 'a' }), event('verification.updated', { verificationId: 'a' })];
    const bs = [1, 2, 3].map((i) => event(i === 1 ? 'verification.created' : 'verification.updated', { verificationId: 'b' }));
    for (const e of [a1, a2, ...bs]) h.delivery.enqueue(e);
    for (const b of bs) await h.answer(b.eventId);
    await expect.poll(() => h.recorded.map(([id]) => id)).toEqual(bs.map((b) => b.eventId));
    expect(h.sent().filter((id) => id !== a1.eventId)).toEqual(bs.map((b) => b.eventId));
    expect(h.sent()).not.toContain(a2.eventId);
    await h.answer(a1.eventId);
    await h.answer(a2.eventId);
  });

  it(`has up to ${DELIVERIES_IN_FLIGHT} attempts in flight across resources, never more`, async () => {
    const h = started(harness());
    const events = Array.from({ length: DELIVERIES_IN_FLIGHT * 2 }, (_, i) => event('verification.created', { verificationId: `v${i}` }));
    for (const e of events) h.delivery.enqueue(e);
    await expect.poll(() => h.calls.length).toBe(DELIVERIES_IN_FLIGHT);
    await settle();
    expect(h.calls.length).toBe(DELIVERIES_IN_FLIGHT);
    for (const e of events) await h.answer(e.eventId);
    await expect.poll(() => h.recorded.length).toBe(events.length);
    expect(h.maxInFlight()).toBe(DELIVERIES_IN_FLIGHT);
  });

  it("starts a resource's next event only once the result before it is recorded (durable with --state)", async () => {
    let durable = () => {};
    const onDisk = new Promise<void>((r) => (durable = r));
    const h = started(harness({ record: (eventId) => (eventId === a1.eventId ? onDisk : undefined) }));
    const [a1, a2, b1] = [event('verification.created', { verificationId: 'a' }), event('verification.updated', { verificationId: 'a' }), event('verification.created', { verificationId: 'b' })];
    for (const e of [a1, a2]) h.delivery.enqueue(e);
    await h.answer(a1.eventId);
    await expect.poll(() => h.recorded.map(([id]) => id)).toEqual([a1.eventId]);
    // Another verification's event goes out meanwhile.
    h.delivery.enqueue(b1);
    await h.answer(b1.eventId);
    await settle();
    expect(h.sent()).toEqual([a1.eventId, b1.eventId]);
    durable();
    await h.answer(a2.eventId);
    expect(h.sent()).toEqual([a1.eventId, b1.eventId, a2.eventId]);
  });

  it("keeps a completed verification's update before its user's events (the completion's documented order)", async () => {
    const h = started(harness());
    const completed = event('verification.updated', { verificationId: 'a', userId: 'u' });
    const created = event('user.created', { userId: 'u' });
    const shareholder = event('shareholder.verified', { userId: 'u' });
    const other = event('verification.created', { verificationId: 'b', userId: null });
    for (const e of [completed, created, shareholder, other]) h.delivery.enqueue(e);
    await h.answer(completed.eventId, 503);
    await h.answer(other.eventId);
    await h.answer(completed.eventId);
    await h.answer(created.eventId);
    await h.answer(shareholder.eventId);
    expect(h.sent().filter((id) => id !== other.eventId)).toEqual([completed.eventId, completed.eventId, created.eventId, shareholder.eventId]);
  });

  it('a reset drops the queues; an attempt in flight then ends without effect', async () => {
    const h = started(harness());
    const [a1, a2] = [event('verification.created', { verificationId: 'a' }), event('verification.updated', { verificationId: 'a' })];
    for (const e of [a1, a2]) h.delivery.enqueue(e);
    await expect.poll(() => h.sent()).toEqual([a1.eventId]);
    h.delivery.clear();
    const a3 = event('verification.created', { verificationId: 'a' });
    h.delivery.enqueue(a3);
    await h.answer(a3.eventId, 500);
    await h.answer(a1.eventId, 200);
    await expect.poll(() => h.sent().filter((id) => id === a3.eventId).length).toBe(2);
    await settle();
    expect(h.sent()).not.toContain(a2.eventId);
  });
});

// --- The sandbox over HTTP, with a loopback receiver -----------------------

interface Received {
  eventId: string;
  eventType: string;
  verificationId?: string;
  status?: string;
}

const servers: Server[] = [];
const sandboxes: Sandbox[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const s of sandboxes.splice(0)) await s.close();
  for (const s of servers.splice(0)) s.closeAllConnections(), s.close();
  for (const f of folders.splice(0)) fs.rmSync(f, { recursive: true, force: true });
});

/** A receiver answering each delivery with `answer` (200 when it returns nothing). */
async function receiver(answer: (event: Received, attempt: number, res: ServerResponse) => number | void) {
  const received: Received[] = [];
  const attempts = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const { eventId, eventType, data } = JSON.parse(body);
      const attempt = (attempts.get(eventId) ?? 0) + 1;
      attempts.set(eventId, attempt);
      const event = { eventId, eventType, verificationId: data.verificationId, status: data.status };
      received.push(event);
      const status = answer(event, attempt, res);
      if (typeof status === 'number') res.writeHead(status).end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, attempts };
}

async function sandboxFor(options: Parameters<typeof serveSandbox>[0]) {
  const sandbox = await serveSandbox({ port: 0, onDeliveryFailure: () => {}, ...options });
  sandboxes.push(sandbox);
  const call = async (p: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${sandbox.url}${p}`, { method, headers: { 'X-Auth-Key': sandbox.partner.activeAuthKey(), 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return res.json();
  };
  let i = 0;
  const create = async () => {
    i += 1;
    const body = await call('/verifications', 'POST', {
      externalUserId: `5d1f0c2a-7e3b-4c69-8a40-${String(Date.now() % 1e6).padStart(6, '0')}${String(i).padStart(6, '0')}`,
      redirectUrl: 'https://partner.example.com/kyc/done',
      phoneNumbers: [{ phoneNumber: `+4917${String(70_000_000 + i)}`, isVerified: false }],
    });
    return body.id as string;
  };
  const open = (id: string) => call(`/_sandbox/verifications/${id}/open`, 'POST', {});
  const history = async (id: string) => (await call(`/verifications/${id}/webhooks`)).webhooks as Array<{ success: boolean; retryAt: string | null; reason?: string; payload: { eventId: string } }>;
  return { sandbox, create, open, history };
}

/** Each event's first arrival, in arrival order. */
const firstArrivals = (received: Received[], verificationId: string) =>
  received.filter((r, i) => r.verificationId === verificationId && received.findIndex((o) => o.eventId === r.eventId) === i).map((r) => r.eventId);

describe('the sandbox delivers', () => {
  it('in order per verification when the receiver fails verification.created and then recovers', async () => {
    let failing = true;
    const hooks = await receiver((e) => (failing && e.eventType === 'verification.created' ? 500 : 200));
    const { create, open, history } = await sandboxFor({ webhookUrl: '', retryIntervalSeconds: 0.3 });
    await fetch(`${sandboxes[0].url}/partners`, { method: 'PUT', headers: { 'X-Auth-Key': sandboxes[0].partner.activeAuthKey(), 'Content-Type': 'application/json' }, body: JSON.stringify({ webhookUrl: hooks.url }) });
    const id = await create();
    await open(id);
    await expect.poll(() => hooks.received.length).toBeGreaterThan(0);
    failing = false;
    await expect.poll(async () => (await history(id)).every((w) => w.success), { timeout: 5000 }).toBe(true);
    const emitted = (await history(id)).map((w) => w.payload.eventId);
    expect(emitted).toHaveLength(2);
    expect(firstArrivals(hooks.received, id)).toEqual(emitted);
    // Nothing of this verification reached the receiver before verification.created was answered 200.
    const created = hooks.received.map((r) => r.eventId).lastIndexOf(emitted[0]);
    expect(hooks.received.findIndex((r) => r.eventId === emitted[1])).toBeGreaterThan(created);
  });

  it('counts an attempt slower than the delivery timeout as failed and sends the event again', async () => {
    const hooks = await receiver((_e, attempt, res) => {
      if (attempt > 1) return 200;
      setTimeout(() => res.writeHead(200).end(), 1000).unref();
    });
    const failures: string[] = [];
    const { sandbox, create, history } = await sandboxFor({ retryIntervalSeconds: 0.3, deliveryTimeoutSeconds: 0.2, onDeliveryFailure: (l) => failures.push(l) });
    await fetch(`${sandbox.url}/partners`, { method: 'PUT', headers: { 'X-Auth-Key': sandbox.partner.activeAuthKey(), 'Content-Type': 'application/json' }, body: JSON.stringify({ webhookUrl: hooks.url }) });
    const id = await create();
    await expect.poll(async () => (await history(id))[0], { timeout: 5000 }).toMatchObject({ success: false, reason: 'no answer within 0.2 s (the delivery timeout)' });
    expect(failures[0]).toMatch(/^webhook verification\.created \S+ to .* not delivered: no answer within 0\.2 s \(the delivery timeout\); retried at /);
    await expect.poll(async () => (await history(id))[0], { timeout: 5000 }).toMatchObject({ success: true, retryAt: null });
    // The receiver got the event twice: the reason receivers drop repeats by eventId.
    const [{ payload }] = await history(id);
    expect(hooks.attempts.get(payload.eventId)).toBe(2);
  });

  it('after a restart with --state, the pending events go out again in their order per verification', { timeout: 30_000 }, async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-delivery-'));
    folders.push(folder);
    const state = path.join(folder, 'state.jsonl');
    let accepting = false;
    const hooks = await receiver(() => (accepting ? 200 : 500));
    const first = await sandboxFor({ state, retryIntervalSeconds: 60 });
    await fetch(`${first.sandbox.url}/partners`, { method: 'PUT', headers: { 'X-Auth-Key': first.sandbox.partner.activeAuthKey(), 'Content-Type': 'application/json' }, body: JSON.stringify({ webhookUrl: hooks.url }) });
    const ids = [await first.create(), await first.create()];
    for (const id of ids) await first.open(id);
    const emitted = new Map<string, string[]>();
    for (const id of ids) emitted.set(id, (await first.history(id)).map((w) => w.payload.eventId));
    // Each verification's first event failed; the rest wait behind it.
    await expect.poll(() => hooks.received.length).toBe(2);
    await sandboxes.shift()!.close();

    accepting = true;
    hooks.received.length = 0;
    const second = await sandboxFor({ state, retryIntervalSeconds: 60 });
    for (const id of ids) {
      await expect.poll(async () => (await second.history(id)).every((w) => w.success), { timeout: 10_000 }).toBe(true);
      expect(firstArrivals(hooks.received, id)).toEqual(emitted.get(id));
    }
    expect(hooks.received).toHaveLength(4);
  });
});
