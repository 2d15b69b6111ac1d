// The webhooks a sandbox emitted, kept for `waitForWebhook` of both
// in-process doors: a wait resolves with the first kept event its predicate
// matches, or the first emitted after it, and rejects at its timeout naming
// what was emitted instead. Generic over the event type, so this layer
// needs nothing of the contract.

/** How many emitted events are kept, so a long suite's memory stays bounded. */
export const KEPT_WEBHOOKS = 1000;

/** `WaitForWebhookOptions` of in-process.ts, declared there: the published declarations import nothing of this folder. */
type WaitOptions = { timeoutMs?: number };

/** Hears each event emitted after the wait began; `undefined` when the sandbox closes. */
type Hearing<E> = (event: E | undefined) => void;

export class EmittedWebhooks<E extends { eventType: string }> {
  private readonly kept: E[] = [];
  /** Counts by event type of all emitted, kept or not, for the message of a failed wait. */
  private readonly counts = new Map<string, number>();
  private readonly waits = new Set<Hearing<E>>();
  private closed = false;

  /** The `onWebhook` a door gives the core: keeps each event, parsed from the signed text (a copy no test can change under the sandbox), then calls the caller's own. */
  listener<Emitted>(onWebhook?: (event: Emitted, body: string) => void): (event: Emitted, body: string) => void {
    return (event, body) => {
      const copy = JSON.parse(body) as E;
      this.kept.push(copy);
      if (this.kept.length > KEPT_WEBHOOKS) this.kept.shift();
      this.counts.set(copy.eventType, (this.counts.get(copy.eventType) ?? 0) + 1);
      for (const hear of this.waits) hear(copy);
      onWebhook?.(event, body);
    };
  }

  /** `waitForWebhook`: one implementation for both forms, as a type guard is a boolean predicate at run time. */
  readonly waitFor: {
    <T extends E>(predicate: (event: E) => event is T, options?: WaitOptions): Promise<T>;
    (predicate: (event: E) => boolean, options?: WaitOptions): Promise<E>;
  } = (predicate: (event: E) => boolean, options?: WaitOptions) =>
    this.wait(predicate, options?.timeoutMs ?? 3000) as Promise<never>;

  /** Ends the waits still pending: a closed sandbox emits nothing more. */
  close(): void {
    this.closed = true;
    for (const hear of this.waits) hear(undefined);
  }

  private wait(predicate: (event: E) => boolean, timeoutMs: number): Promise<E> {
    if (typeof predicate !== 'function')
      throw new TypeError(
        "waitForWebhook: the first argument must be a function of the event, such as (event) => event.eventType === 'user.created'",
      );
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
      throw new TypeError(
        `waitForWebhook: timeoutMs must be a positive number of milliseconds, not ${String(timeoutMs)}`,
      );
    }
    return new Promise<E>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const end = () => {
        clearTimeout(timer);
        this.waits.delete(hear);
      };
      const fail = (what: string) => {
        end();
        reject(new Error(this.failure(predicate, what)));
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
      this.waits.add(hear);
      for (const event of this.kept) if (this.waits.has(hear)) hear(event);
      if (this.waits.has(hear) && this.closed) fail('the sandbox is closed, so no more webhooks will be emitted');
      if (this.waits.has(hear)) timer = setTimeout(() => fail(`none was emitted within ${timeoutMs} ms`), timeoutMs);
    });
  }

  private failure(predicate: (event: E) => boolean, what: string): string {
    const source = String(predicate).replace(/\s+/g, ' ').trim();
    const total = [...this.counts.values()].reduce((sum, n) => sum + n, 0);
    const byType = [...this.counts].map(([type, n]) => (n === 1 ? type : `${type} ×${n}`)).join(', ');
    const emitted =
      total === 0 ? 'no webhook was emitted at all' : `${total} ${total === 1 ? 'was' : 'were'} emitted (${byType})`;
    const dropped = total > KEPT_WEBHOOKS ? `; only the last ${KEPT_WEBHOOKS} are kept to match` : '';
    return (
      `waitForWebhook: waited for a webhook matching ${source.length > 160 ? `${source.slice(0, 160)}…` : source}, but ${what}; ${emitted}${dropped}. ` +
      'Check that the call that emits it ran and was answered 2xx (a control API call such as /_sandbox/verifications/{id}/scan, or a partner API call), ' +
      'that the predicate reads the fields the event has (eventType, data), and give a longer timeoutMs if the action is slow.'
    );
  }
}
