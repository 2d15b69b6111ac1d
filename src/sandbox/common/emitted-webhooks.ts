// The webhooks a sandbox emitted and the deliveries it attempted, kept for `waitForWebhook` and `waitForDelivery`:
// a wait resolves with the first kept or later match, or rejects naming what happened instead.

/** How many emitted events (and events attempted) are kept, so a long suite's memory stays bounded. */
export const KEPT_WEBHOOKS = 1000;

/** How many failed attempts of one event a failed wait names: the last ones. */
const NAMED_FAILURES = 3;

/** `WaitForWebhookOptions` of in-process.ts, declared there: the published declarations import nothing of this folder. */
type WaitOptions = { timeoutMs?: number };

/** Hears each event after the wait began; `undefined` when the sandbox closes. */
type Hearing<E> = (event: E | undefined) => void;

/** One delivery attempt, as delivery reports it once its result is recorded. */
export interface DeliveryAttempt {
  eventId: string;
  /** The event's JSON text, as signed and sent. */
  body: string;
  /** The webhook address it went to, without credentials. */
  url: string;
  /** Why it failed and when it is retried; absent when the receiver answered 200. */
  failure?: string;
}

/** What the attempts of one event came to. */
interface Attempted<E> {
  event: E;
  url: string;
  failures: string[];
  delivered: boolean;
}

interface WaitKind<E> {
  name: 'waitForWebhook' | 'waitForDelivery';
  /** The kept events a new wait is matched against first. */
  kept: () => Iterable<E>;
  waits: Set<Hearing<E>>;
  /** Why it found none: what was emitted, or attempted and answered. */
  account: (predicate: (event: E) => boolean) => string;
  advice: string;
}

type WaitFor<E> = {
  <T extends E>(predicate: (event: E) => event is T, options?: WaitOptions): Promise<T>;
  (predicate: (event: E) => boolean, options?: WaitOptions): Promise<E>;
};

export class EmittedWebhooks<E extends { eventType: string }> {
  private readonly kept: E[] = [];
  /** Counts by event type of all emitted, kept or not, for the message of a failed wait. */
  private readonly counts = new Map<string, number>();
  /** By eventId, in the order first attempted. */
  private readonly attempted = new Map<string, Attempted<E>>();
  private closed = false;

  private readonly emittedKind: WaitKind<E> = {
    name: 'waitForWebhook',
    kept: () => this.kept,
    waits: new Set(),
    account: () => this.emittedAccount(),
    advice:
      'Check that the call that emits it ran and was answered 2xx (a control API call such as /_sandbox/verifications/{id}/scan, or a partner API call), ' +
      'that the predicate reads the fields the event has (eventType, data), and give a longer timeoutMs if the action is slow.',
  };

  private readonly deliveredKind: WaitKind<E> = {
    name: 'waitForDelivery',
    kept: () => [...this.attempted.values()].filter((a) => a.delivered).map((a) => a.event),
    waits: new Set(),
    account: (predicate) => this.deliveryAccount(predicate),
    advice:
      'Check that a webhookUrl was set before the event (the webhookUrl option, or PUT /partners) and that your receiver answers 200 to it; ' +
      'a failed attempt is retried after the retry interval (retryIntervalSeconds, or POST /_sandbox/clock/advance past it); give a longer timeoutMs if your receiver is slow.',
  };

  /** The `onWebhook` a door gives the core: keeps each event, parsed from the signed text (a copy no test can change under the sandbox), then calls the caller's own. */
  listener<Emitted>(onWebhook?: (event: Emitted, body: string) => void): (event: Emitted, body: string) => void {
    return (event, body) => {
      const copy = JSON.parse(body) as E;
      this.kept.push(copy);
      if (this.kept.length > KEPT_WEBHOOKS) this.kept.shift();
      this.counts.set(copy.eventType, (this.counts.get(copy.eventType) ?? 0) + 1);
      for (const hear of this.emittedKind.waits) hear(copy);
      onWebhook?.(event, body);
    };
  }

  /** The `onDeliveryAttempt` a door gives the core: keeps what each event's attempts came to; one answered 200 is delivered. */
  readonly attemptListener = ({ eventId, body, url, failure }: DeliveryAttempt): void => {
    let attempts = this.attempted.get(eventId);
    if (!attempts) {
      attempts = { event: JSON.parse(body) as E, url, failures: [], delivered: false };
      this.attempted.set(eventId, attempts);
      if (this.attempted.size > KEPT_WEBHOOKS) this.attempted.delete(this.attempted.keys().next().value!);
    }
    attempts.url = url;
    if (failure !== undefined) {
      attempts.failures.push(failure);
      if (attempts.failures.length > NAMED_FAILURES) attempts.failures.shift();
      return;
    }
    // A second 200 (a duplicate, a resend) is heard once: a wait resolves with the first.
    if (attempts.delivered) return;
    attempts.delivered = true;
    for (const hear of this.deliveredKind.waits) hear(attempts.event);
  };

  /** `waitForWebhook`: one implementation for both forms, as a type guard is a boolean predicate at run time. */
  readonly waitFor: WaitFor<E> = (predicate: (event: E) => boolean, options?: WaitOptions) =>
    this.wait(this.emittedKind, predicate, options?.timeoutMs ?? 3000) as Promise<never>;

  /** `waitForDelivery`: the same, for an event the receiver answered 200. */
  readonly waitForDelivery: WaitFor<E> = (predicate: (event: E) => boolean, options?: WaitOptions) =>
    this.wait(this.deliveredKind, predicate, options?.timeoutMs ?? 3000) as Promise<never>;

  /** Ends the waits still pending: a closed sandbox emits and delivers nothing more. */
  close(): void {
    this.closed = true;
    for (const kind of [this.emittedKind, this.deliveredKind]) for (const hear of kind.waits) hear(undefined);
  }

  private wait(kind: WaitKind<E>, predicate: (event: E) => boolean, timeoutMs: number): Promise<E> {
    const { name, waits } = kind;
    if (typeof predicate !== 'function')
      throw new TypeError(
        `${name}: the first argument must be a function of the event, such as (event) => event.eventType === 'user.created'`,
      );
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs))
      throw new TypeError(`${name}: timeoutMs must be a positive number of milliseconds, not ${String(timeoutMs)}`);
    return new Promise<E>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const end = () => {
        clearTimeout(timer);
        waits.delete(hear);
      };
      const fail = (what: string) => {
        end();
        reject(new Error(this.failure(kind, predicate, what)));
      };
      const hear: Hearing<E> = (event) => {
        if (event === undefined) return fail('the sandbox was closed while it waited');
        // A predicate that throws ends the wait with its error, where the test sees it.
        try {
          if (!predicate(event)) return;
        } catch (err) {
          end();
          return reject(err);
        }
        end();
        resolve(event);
      };
      // A wait is pending while it is in `waits`: the kept events are heard first, then the sandbox's state decides.
      waits.add(hear);
      for (const event of kind.kept()) if (waits.has(hear)) hear(event);
      const none =
        name === 'waitForWebhook' ? 'no more webhooks will be emitted' : 'no more webhooks will be delivered';
      if (waits.has(hear) && this.closed) fail(`the sandbox is closed, so ${none}`);
      const within = name === 'waitForWebhook' ? 'none was emitted' : 'none was answered 200';
      if (waits.has(hear)) timer = setTimeout(() => fail(`${within} within ${timeoutMs} ms`), timeoutMs);
    });
  }

  private failure(kind: WaitKind<E>, predicate: (event: E) => boolean, what: string): string {
    const source = String(predicate).replace(/\s+/g, ' ').trim();
    const shown = source.length > 160 ? `${source.slice(0, 160)}…` : source;
    const target = kind.name === 'waitForWebhook' ? '' : ' to be answered 200 by the receiver';
    return `${kind.name}: waited for a webhook matching ${shown}${target}, but ${what}; ${kind.account(predicate)}. ${kind.advice}`;
  }

  private emittedAccount(): string {
    const total = [...this.counts.values()].reduce((sum, n) => sum + n, 0);
    const byType = [...this.counts].map(([type, n]) => (n === 1 ? type : `${type} ×${n}`)).join(', ');
    const emitted =
      total === 0 ? 'no webhook was emitted at all' : `${total} ${total === 1 ? 'was' : 'were'} emitted (${byType})`;
    return total > KEPT_WEBHOOKS ? `${emitted}; only the last ${KEPT_WEBHOOKS} are kept to match` : emitted;
  }

  /** The matching events' attempts and answers, or, when none was attempted, whether any was emitted. */
  private deliveryAccount(predicate: (event: E) => boolean): string {
    const matches = (event: E) => {
      try {
        return predicate(event);
      } catch {
        return false;
      }
    };
    const failed = [...this.attempted].filter(([, a]) => !a.delivered && matches(a.event));
    if (failed.length) {
      const named = failed
        .slice(-NAMED_FAILURES)
        .map(([id, a]) => `${a.event.eventType} ${id} to ${a.url}: ${a.failures.join('; then ')}`);
      const more = failed.length > NAMED_FAILURES ? ` (the last ${NAMED_FAILURES} of ${failed.length})` : '';
      return `the matching deliveries attempted, none answered 200${more}: ${named.join(' | ')}`;
    }
    const emitted = this.kept.filter(matches).length;
    if (emitted)
      return `${emitted} matching ${emitted === 1 ? 'was' : 'were'} emitted, and no delivery of ${emitted === 1 ? 'it' : 'them'} was attempted (no webhookUrl was set when ${emitted === 1 ? 'it was' : 'they were'} emitted, or the attempt is still under way)`;
    return `none matching was emitted: ${this.emittedAccount()}`;
  }
}
