// GET answers of the partner and v2 APIs kept as the JSON text that was
// sent, until anything in the state changes (DECISIONS S25). Clients poll a
// verification or a session for its status; a poll that finds nothing new
// then costs a lookup instead of a copy of the record and JSON.stringify.
// Every change empties the whole cache: a write through either API or the
// control API, an expiry the clock brings, a webhook delivery's outcome, and
// any call on the in-process state (`sandbox.partner`, `sandbox.v2`).

/** An answer body already serialized, sent as it is. */
export class JsonText {
  /** Its length in UTF-8, for Content-Length: measured once, however often it is sent. */
  readonly bytes: number;
  constructor(readonly text: string) {
    this.bytes = Buffer.byteLength(text);
  }
}

export type CachedAnswer = [number, JsonText];

/** Enough for every record a developer polls; a cache that grows past it starts again empty. */
const MAX_BYTES = 16 * 1024 * 1024;

export class AnswerCache {
  /** Keyed by the dispatcher's remembered lookup of a method and target. */
  private readonly entries = new Map<object, CachedAnswer>();
  private bytes = 0;

  get(key: object): CachedAnswer | undefined {
    return this.entries.get(key);
  }

  set(key: object, status: number, answer: JsonText): void {
    if (answer.bytes > MAX_BYTES / 16) return;
    if (this.bytes + answer.bytes > MAX_BYTES) this.invalidate();
    this.entries.set(key, [status, answer]);
    this.bytes += answer.bytes;
  }

  /** The state changed: nothing kept can be sent again. */
  invalidate(): void {
    if (this.entries.size === 0) return;
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * The state object as the embedding code sees it: every method call empties
 * the cache, since the cache cannot tell a read from a change made outside
 * the HTTP layer (a call is rare there; a needless miss costs little).
 */
export function invalidatingCalls<T extends object>(target: T, cache: AnswerCache): T {
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key, object);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          return value.apply(object, args);
        } finally {
          cache.invalidate();
        }
      };
    },
  });
}
