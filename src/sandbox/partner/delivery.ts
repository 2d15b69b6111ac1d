// Sends the sandbox's webhooks to the partner's webhookUrl as the service
// does: POST, the JSON envelope, X-SIGNATURE with the current auth key; any
// answer but 200 (or none) is retried on the retry interval. An API call
// only enqueues, so a slow or dead receiver never slows or fails it.
import type { DeliveryResult, EmittedEvent } from './api.js';

export interface DeliveryOptions {
  clock: { now(): Date };
  /** The partner's webhookUrl now, or undefined when none is set. */
  target: () => string | undefined;
  /** The auth key that signs now (a rotation applies to the next attempt). */
  authKey: () => string;
  /** Updates the event's history record in place; with --state it resolves once the result is on disk. */
  record: (eventId: string, result: DeliveryResult) => void | Promise<void>;
  /** Retry interval; the service's is 15 minutes, tests shorten it. */
  retryIntervalMs?: number;
  /** How long one attempt may take before it counts as no answer. */
  attemptTimeoutMs?: number;
  /** Told of each attempt that failed, in one line, as `stripe listen` shows each delivery. */
  onFailure?: (line: string) => void;
  /** What sends each attempt (the global fetch when absent): a test may receive webhooks in-process. */
  fetch?: (request: Request) => Promise<Response>;
}

const encoder = new TextEncoder();
const hmacKey = (authKey: string) => crypto.subtle.importKey('raw', encoder.encode(authKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
/** Neither a retry nor an attempt's timeout keeps the process alive (Node; other runtimes have no unref). */
const unref = (timer: ReturnType<typeof setTimeout>) => (timer as { unref?: () => void }).unref?.();

interface Pending {
  eventId: string;
  body: string;
  /** The queues it is in (see `resourcesOf`); it goes out when it heads each of them. */
  resources: string[];
  /** Sandbox time of the next attempt. */
  due: number;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Attempts in flight at once. One takes about two turns of the thread the API
 * shares (signature, request) to a create's one: at 16, deliveries fell behind
 * 16 clients creating; 32 keeps pace (`npm run bench -- --only delivery`).
 * Bounded, so a slow receiver has at most 32 requests open.
 */
export const DELIVERIES_IN_FLIGHT = 32;

// What an event must stay in order with: every verification and user its
// `data` names. A verification event names its user once completed or reverted,
// so a completion's user events wait for its `verification.updated`, and a
// revert's update follows the `user.deleted` emitted before it.
function resourcesOf(body: string, eventId: string): string[] {
  const data: Record<string, unknown> = (JSON.parse(body) as { data?: Record<string, unknown> }).data ?? {};
  const resources: string[] = [];
  if (typeof data.verificationId === 'string') resources.push(`verification ${data.verificationId}`);
  for (const user of [data.userId, data.previousUserId]) if (typeof user === 'string') resources.push(`user ${user}`);
  // An event naming neither waits for nothing.
  return resources.length ? resources : [`event ${eventId}`];
}

// The event type for a person reading the line; the body is the sandbox's own JSON.
const eventTypeOf = (body: string) => /"eventType":"([^"]*)"/.exec(body)?.[1] ?? 'event';

/**
 * At least once, in order per resource: each resource has a FIFO queue, and
 * only an event heading all its queues is attempted. It leaves them once
 * answered 200 and recorded (on disk with --state), so a crash re-sends only
 * events whose answer went unrecorded, and a failed one holds back later ones.
 */
export class WebhookDelivery {
  private readonly queues = new Map<string, Pending[]>();
  /** Events heading all their queues, due and not in flight, in the order they became so. */
  private readonly ready: Pending[] = [];
  /** Events whose attempt failed, waiting for the retry interval (still heading their queues). */
  private readonly waiting = new Set<Pending>();
  private inFlight = 0;
  private closed = false;
  /** The attempts in flight, aborted by `close()`. */
  private readonly attempts = new Set<AbortController>();
  private readonly retryMs: number;
  private readonly timeoutMs: number;
  /** The key that signs now, imported once per auth key (an import costs as much as a signature). */
  private signing?: { authKey: string; key: Promise<CryptoKey> };

  constructor(private readonly options: DeliveryOptions) {
    this.retryMs = options.retryIntervalMs ?? 15 * 60_000;
    this.timeoutMs = options.attemptTimeoutMs ?? 10_000;
  }

  /** Queues an event for delivery, after the events enqueued before it for the same resources. */
  enqueue({ eventId, text }: EmittedEvent): void {
    // The service sends to the address set at the time of the event.
    if (this.closed || !this.options.target()) return;
    const pending: Pending = { eventId, body: text, resources: resourcesOf(text, eventId), due: this.options.clock.now().getTime() };
    for (const resource of pending.resources) {
      const queue = this.queues.get(resource);
      if (queue) queue.push(pending);
      else this.queues.set(resource, [pending]);
    }
    if (this.heads(pending)) this.ready.push(pending);
    this.pump();
  }

  /** Retries now whatever is due by the sandbox clock (after it was advanced). */
  retryDue(): void {
    const now = this.options.clock.now().getTime();
    for (const pending of this.waiting) if (pending.due <= now) this.retry(pending);
  }

  /** Drops pending deliveries (a reset of the sandbox); an attempt in flight ends without effect on the queues. */
  clear(): void {
    this.queues.clear();
    this.ready.length = 0;
    for (const pending of this.waiting) clearTimeout(pending.timer);
    this.waiting.clear();
  }

  close(): void {
    this.closed = true;
    this.clear();
    for (const attempt of this.attempts) attempt.abort();
  }

  private heads(pending: Pending): boolean {
    return pending.resources.every((resource) => this.queues.get(resource)?.[0] === pending);
  }

  private retry(pending: Pending): void {
    clearTimeout(pending.timer);
    this.waiting.delete(pending);
    this.ready.push(pending);
    this.pump();
  }

  private pump(): void {
    while (this.inFlight < DELIVERIES_IN_FLIGHT && this.ready.length && !this.closed) {
      this.inFlight += 1;
      void this.attempt(this.ready.shift()!).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  /** Takes a delivered event off its queues; an event it held that now heads all of its own is ready. */
  private release(pending: Pending): void {
    for (const resource of pending.resources) {
      const queue = this.queues.get(resource);
      if (queue?.[0] !== pending) continue; // dropped by a reset while in flight
      queue.shift();
      if (!queue.length) this.queues.delete(resource);
      else if (this.heads(queue[0])) this.ready.push(queue[0]);
    }
  }

  private async attempt(pending: Pending): Promise<void> {
    const url = this.options.target();
    // Nothing to deliver to: the record stays pending (a restart with an address set sends it).
    if (!url) return this.release(pending);
    let reason = await this.send(pending, url);
    if (this.closed) return;
    const due = this.options.clock.now().getTime() + this.retryMs;
    try {
      // Awaited before release: the resources' next event starts only once this result is durable, so order survives a crash.
      await this.options.record(pending.eventId, reason === undefined ? { success: true, retryAt: null } : { success: false, retryAt: new Date(due).toISOString(), reason });
      if (reason === undefined) return this.release(pending);
    } catch (err) {
      // Delivered but not recorded: sent again, which at least once allows.
      reason ??= `its delivery could not be recorded (${(err as Error).message})`;
    }
    if (!this.heads(pending)) return; // dropped by a reset while in flight
    pending.due = due;
    this.options.onFailure?.(`webhook ${eventTypeOf(pending.body)} ${pending.eventId} to ${url} not delivered: ${reason}; retried at ${new Date(due).toISOString()} (sandbox time)`);
    pending.timer = setTimeout(() => this.retry(pending), this.retryMs);
    unref(pending.timer);
    this.waiting.add(pending);
  }

  /** The X-SIGNATURE of a body: hex HMAC-SHA256 under the current auth key, on Web Crypto (every runtime the sandbox runs in). */
  private async sign(body: string): Promise<string> {
    const authKey = this.options.authKey();
    if (this.signing?.authKey !== authKey) this.signing = { authKey, key: hmacKey(authKey) };
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await this.signing.key, encoder.encode(body)));
    return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
  }

  /** One attempt: undefined when answered 200, else why not. */
  private async send(pending: Pending, url: string): Promise<string | undefined> {
    // A controller and a timer per attempt: AbortSignal.any over a long-lived
    // signal costs about a third of an attempt's CPU on Node 20.
    const attempt = new AbortController();
    const timer = setTimeout(() => attempt.abort(new DOMException('the delivery timeout passed', 'TimeoutError')), this.timeoutMs);
    unref(timer);
    this.attempts.add(attempt);
    try {
      const headers = { 'Content-Type': 'application/json', 'X-SIGNATURE': await this.sign(pending.body) };
      const request = new Request(url, { method: 'POST', headers, body: pending.body, signal: attempt.signal });
      const res = await (this.options.fetch ?? fetch)(request);
      await res.arrayBuffer().catch(() => undefined);
      return res.status === 200 ? undefined : `the webhook address answered ${res.status}`;
    } catch (err) {
      if ((err as Error).name === 'TimeoutError') return `no answer within ${this.timeoutMs / 1000} s (the delivery timeout)`;
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      return `no answer from the webhook address (${cause ?? (err as Error).name})`;
    } finally {
      clearTimeout(timer);
      this.attempts.delete(attempt);
    }
  }
}
