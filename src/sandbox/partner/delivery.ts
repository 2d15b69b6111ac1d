// Sends webhooks to the partner's webhookUrl as the service does: POST, signed with the current auth key, retried on
// the interval until answered 200. An API call only enqueues, so a dead receiver never slows it.
import type { DeliveryResult, EmittedEvent } from './api.js';
import { withoutCredentials } from '../../web-address.js';
import { signWebhookPayloadAsync } from '../../webhooks/signature.js';
import type { DeliveryAttempt } from '../common/emitted-webhooks.js';
import { DELAY_MS, REORDER_WINDOW_MS, shuffled, type WebhookFaultName } from '../common/webhook-faults.js';

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
  /** Told of each attempt once its result is recorded, answered 200 or not (`waitForDelivery`). */
  onAttempt?: (attempt: DeliveryAttempt) => void;
  /** What sends each attempt (the global fetch when absent): a test may receive webhooks in-process. */
  fetch?: (request: Request) => Promise<Response>;
  /** Delivery made worse on purpose, as the service may deliver (webhook-faults.ts). */
  faults?: readonly WebhookFaultName[];
}

/** Neither a retry nor an attempt's timeout keeps the process alive (Node; other runtimes have no unref). */
const unref = (timer: ReturnType<typeof setTimeout>) => (timer as { unref?: () => void }).unref?.();

interface Pending {
  eventId: string;
  body: string;
  /** Sandbox time of the next attempt. */
  due: number;
  /** The `clear()` it was enqueued after: one enqueued before a reset ends without effect. */
  generation: number;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Attempts in flight at once: at 16 deliveries fell behind 16 clients creating, 32 keeps pace (S46); bounded, so a
 * slow receiver has at most 32 requests open.
 */
export const DELIVERIES_IN_FLIGHT = 32;

// The event type for a person reading the line; the body is the sandbox's own JSON.
const eventTypeOf = (body: string) => /"eventType":"([^"]*)"/.exec(body)?.[1] ?? 'event';

/**
 * At least once, each event on its own (S46): a failed one waits for its own retry while later ones go out; it is done
 * once answered 200 and recorded, so a crash re-sends only events whose answer went unrecorded.
 */
export class WebhookDelivery {
  /** Events due and not in flight, in the order they became so. */
  private readonly ready: Pending[] = [];
  /** Events whose attempt failed, waiting for the retry interval. */
  private readonly waiting = new Set<Pending>();
  private inFlight = 0;
  private generation = 0;
  private closed = false;
  /** The attempts in flight, aborted by `close()`. */
  private readonly attempts = new Set<AbortController>();
  /** `reorder`: the events gathered for the next shuffled batch. */
  private batch: Pending[] = [];
  /** `reorder` and `delay`: the timers holding events back, cleared by a reset. */
  private readonly holds = new Set<ReturnType<typeof setTimeout>>();
  private readonly faults: ReadonlySet<WebhookFaultName>;
  private readonly retryMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: DeliveryOptions) {
    this.retryMs = options.retryIntervalMs ?? 15 * 60_000;
    this.timeoutMs = options.attemptTimeoutMs ?? 10_000;
    this.faults = new Set(options.faults);
  }

  /** Delivers an event; with `saved`, only once the change it reports is on disk, so no receiver hears of a change a crash could lose. */
  enqueue({ eventId, text }: EmittedEvent, saved?: PromiseLike<unknown>): void {
    // The service sends to the address set at the time of the event.
    if (this.closed || !this.options.target()) return;
    const pending = this.pending(eventId, text);
    // `duplicate`: a second delivery of the same event, as a lost answer makes the service send.
    const copies = this.faults.has('duplicate') ? [pending, { ...pending }] : [pending];
    const sendAll = () => {
      for (const copy of copies) this.send(copy);
    };
    if (!saved) {
      sendAll();
      return;
    }
    saved.then(sendAll, (err: Error) =>
      this.options.onFailure?.(
        `webhook ${eventTypeOf(text)} ${eventId} not sent: the change it reports was not saved (${err.message}), so a restart would not know it; see the error the request got`,
      ),
    );
  }

  /** Retries now whatever is due by the sandbox clock (after it was advanced). */
  retryDue(): void {
    const now = this.options.clock.now().getTime();
    for (const pending of this.waiting) if (pending.due <= now) this.send(pending);
  }

  /** Sends a past event again, the same body and eventId, signed with the key active when it goes (`POST /_sandbox/webhooks/{eventId}/resend`). */
  resend({ eventId, text }: EmittedEvent): void {
    if (this.closed) return;
    this.send(this.pending(eventId, text));
  }

  private pending(eventId: string, body: string): Pending {
    return { eventId, body, due: this.options.clock.now().getTime(), generation: this.generation };
  }

  /** Drops pending deliveries (a reset of the sandbox); an attempt in flight ends without effect. */
  clear(): void {
    this.generation += 1;
    this.ready.length = 0;
    this.batch = [];
    for (const hold of this.holds) clearTimeout(hold);
    this.holds.clear();
    for (const pending of this.waiting) clearTimeout(pending.timer);
    this.waiting.clear();
  }

  close(): void {
    this.closed = true;
    this.clear();
    for (const attempt of this.attempts) attempt.abort();
  }

  /** Makes an event ready: its first attempt, or a retry out of `waiting`, held first where a fault says. */
  private send(pending: Pending): void {
    clearTimeout(pending.timer);
    this.waiting.delete(pending);
    if (this.closed || pending.generation !== this.generation) return;
    if (!this.faults.has('reorder')) {
      this.release([pending]);
      return;
    }
    this.batch.push(pending);
    if (this.batch.length === 1) {
      this.hold(REORDER_WINDOW_MS, () => {
        const batch = shuffled(this.batch);
        this.batch = [];
        this.release(batch);
      });
    }
  }

  /** Queues events for their attempt, in the order given; `delay` holds them first. */
  private release(events: Pending[]): void {
    const ready = () => {
      this.ready.push(...events.filter((e) => e.generation === this.generation));
      this.pump();
    };
    if (this.faults.has('delay')) this.hold(DELAY_MS, ready);
    else ready();
  }

  /** Runs `then` after `ms`, unless a reset or close comes first. */
  private hold(ms: number, then: () => void): void {
    const timer = setTimeout(() => {
      this.holds.delete(timer);
      if (!this.closed) then();
    }, ms);
    unref(timer);
    this.holds.add(timer);
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

  private async attempt(pending: Pending): Promise<void> {
    const url = this.options.target();
    // Nothing to deliver to: the record stays pending (a restart with an address set sends it).
    if (!url) return;
    let reason = await this.attemptWithin(pending, url);
    if (this.closed || pending.generation !== this.generation) return;
    const due = this.options.clock.now().getTime() + this.retryMs;
    try {
      // Awaited while the attempt holds its slot: results are recorded no faster than the disk takes them.
      await this.options.record(
        pending.eventId,
        reason === undefined
          ? { success: true, retryAt: null }
          : { success: false, retryAt: new Date(due).toISOString(), reason },
      );
      if (reason === undefined) {
        this.options.onAttempt?.({ eventId: pending.eventId, body: pending.body, url: withoutCredentials(url) });
        return;
      }
    } catch (err) {
      // Delivered but not recorded: sent again, which at least once allows.
      reason ??= `its delivery could not be recorded (${(err as Error).message})`;
    }
    if (pending.generation !== this.generation) return; // dropped by a reset while recording
    pending.due = due;
    const failure = `${reason}; retried at ${new Date(due).toISOString()} (sandbox time)`;
    this.options.onAttempt?.({ eventId: pending.eventId, body: pending.body, url: withoutCredentials(url), failure });
    this.options.onFailure?.(
      `webhook ${eventTypeOf(pending.body)} ${pending.eventId} to ${withoutCredentials(url)} not delivered: ${failure}`,
    );
    pending.timer = setTimeout(() => this.send(pending), this.retryMs);
    unref(pending.timer);
    this.waiting.add(pending);
  }

  /** One attempt, ended at the timeout even if fetch never settles (Node 20); undefined when answered 200. */
  private async attemptWithin(pending: Pending, url: string): Promise<string | undefined> {
    // A controller and a timer per attempt: AbortSignal.any over a long-lived signal took a third of its CPU (Node 20).
    const attempt = new AbortController();
    const timer = setTimeout(
      () => attempt.abort(new DOMException('the delivery timeout passed', 'TimeoutError')),
      this.timeoutMs,
    );
    unref(timer);
    this.attempts.add(attempt);
    const aborted = new Promise<string>((resolve) => {
      const timedOut = () => (attempt.signal.reason as Error).name === 'TimeoutError';
      const reason = () =>
        timedOut() ? `no answer within ${this.timeoutMs / 1000} s (the delivery timeout)` : 'the sandbox stopped';
      attempt.signal.addEventListener('abort', () => resolve(reason()), { once: true });
    });
    try {
      return await Promise.race([this.exchange(pending, url, attempt.signal), aborted]);
    } finally {
      clearTimeout(timer);
      this.attempts.delete(attempt);
    }
  }

  /** The request and its answer read whole; when aborted, the race above has its answer already. */
  private async exchange(pending: Pending, url: string, signal: AbortSignal): Promise<string | undefined> {
    try {
      // Signed with the key active now, on Web Crypto (every runtime the sandbox runs in).
      const headers = {
        'Content-Type': 'application/json',
        'X-SIGNATURE': await signWebhookPayloadAsync(pending.body, this.options.authKey()),
      };
      // A redirect is never followed: it would send the signed body to an address the partner did not set.
      const request = new Request(url, { method: 'POST', headers, body: pending.body, signal, redirect: 'manual' });
      const res = await (this.options.fetch ?? fetch)(request);
      await res.arrayBuffer().catch(() => undefined);
      if (res.status === 200) return undefined;
      const redirect = res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400);
      // A 401 is most often a receiver holding another key: a restart without --state makes a new one.
      const more = redirect
        ? ', a redirect, which webhooks never follow: set webhookUrl to the address that answers 200'
        : res.status === 401
          ? '; if it checks X-SIGNATURE, it holds another key than the one in force (GET /_sandbox/credentials gives it)'
          : '';
      return `the webhook address answered ${res.status}${more}`;
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      return `no answer from the webhook address (${cause ?? (err as Error).name})`;
    }
  }
}
