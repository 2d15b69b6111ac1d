// Sends the sandbox's webhooks to the partner's webhookUrl as the service
// does: POST, the JSON envelope, X-SIGNATURE with the current auth key; any
// answer but 200 (or none) is retried on the retry interval. Delivery runs
// beside the API: an API call only enqueues, so a slow or dead receiver
// never slows or fails it.
import type { DeliveryResult, EmittedEvent } from './api.js';

export const DOCUMENTED_RETRY_INTERVAL_MS = 15 * 60_000;

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
/** The X-SIGNATURE of a body: hex HMAC-SHA256 under the auth key, on Web Crypto (every runtime the sandbox runs in). */
async function sign(body: string, authKey: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(authKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(body)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

interface Pending {
  eventId: string;
  body: string;
  /** Sandbox time of the next attempt. */
  due: number;
  timer?: ReturnType<typeof setTimeout>;
}

// The event type for a person reading the line; the body is the sandbox's own JSON.
const eventTypeOf = (body: string) => /"eventType":"([^"]*)"/.exec(body)?.[1] ?? 'event';

export class WebhookDelivery {
  private readonly queue: Pending[] = [];
  private readonly waiting = new Set<Pending>();
  private sending = false;
  private closed = false;
  private readonly controller = new AbortController();
  private readonly retryMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: DeliveryOptions) {
    this.retryMs = options.retryIntervalMs ?? DOCUMENTED_RETRY_INTERVAL_MS;
    this.timeoutMs = options.attemptTimeoutMs ?? 10_000;
  }

  /** Queues an event for delivery, in the order it was emitted. */
  enqueue({ eventId, text }: EmittedEvent): void {
    // The service sends to the address set at the time of the event.
    if (this.closed || !this.options.target()) return;
    // Serialized once, when emitted: every attempt sends (and signs) the same bytes.
    this.queue.push({ eventId, body: text, due: this.options.clock.now().getTime() });
    void this.pump();
  }

  /** Retries now whatever is due by the sandbox clock (after it was advanced). */
  retryDue(): void {
    const now = this.options.clock.now().getTime();
    for (const pending of this.waiting) {
      if (pending.due <= now) this.requeue(pending);
    }
  }

  /** Drops pending deliveries (a reset of the sandbox). */
  clear(): void {
    this.queue.length = 0;
    for (const pending of this.waiting) clearTimeout(pending.timer);
    this.waiting.clear();
  }

  close(): void {
    this.closed = true;
    this.clear();
    this.controller.abort();
  }

  private requeue(pending: Pending): void {
    clearTimeout(pending.timer);
    this.waiting.delete(pending);
    this.queue.push(pending);
    void this.pump();
  }

  // One attempt at a time keeps first deliveries in the documented order.
  private async pump(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      for (let next = this.queue.shift(); next && !this.closed; next = this.queue.shift()) await this.attempt(next);
    } finally {
      this.sending = false;
    }
  }

  private async attempt(pending: Pending): Promise<void> {
    const url = this.options.target();
    if (!url) return; // nothing to deliver to: the record stays as it is
    let reason: string | undefined;
    try {
      const request = new Request(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-SIGNATURE': await sign(pending.body, this.options.authKey()) },
        body: pending.body,
        signal: AbortSignal.any([this.controller.signal, AbortSignal.timeout(this.timeoutMs)]),
      });
      const res = await (this.options.fetch ?? fetch)(request);
      await res.arrayBuffer().catch(() => undefined);
      if (res.status === 200) {
        this.options.record(pending.eventId, { success: true, retryAt: null });
        return;
      }
      reason = `the webhook address answered ${res.status}`;
    } catch (err) {
      if (this.closed) return;
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      reason = `no answer from the webhook address (${cause ?? (err as Error).name})`;
    }
    pending.due = this.options.clock.now().getTime() + this.retryMs;
    const retryAt = new Date(pending.due).toISOString();
    this.options.record(pending.eventId, { success: false, retryAt, reason });
    this.options.onFailure?.(`webhook ${eventTypeOf(pending.body)} ${pending.eventId} to ${url} not delivered: ${reason}; retried at ${retryAt} (sandbox time)`);
    pending.timer = setTimeout(() => this.requeue(pending), this.retryMs);
    // A pending retry keeps no process alive (Node; other runtimes have no unref).
    (pending.timer as { unref?: () => void }).unref?.();
    this.waiting.add(pending);
  }
}
