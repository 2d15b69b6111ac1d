// The sandbox's clock: real time shifted as far as the control API moved it,
// kept where a date-time can still say the time (S28).
import { SandboxError } from './sandbox-error.js';

/** The last instant an RFC 3339 date-time can say; after it `toISOString` writes `+010000-…`. */
export const LAST_DATE_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** The latest the clock may go: 30 days (the longest `timeToExpiry`) before the last date-time (S28). */
export const LATEST_CLOCK_MS = LAST_DATE_TIME_MS - 43_200 * 60_000;

/** Why the clock cannot be at `ms`, or undefined when it can. */
export function beyondDateTimes(ms: number): string | undefined {
  if (ms <= LATEST_CLOCK_MS) return undefined;
  const at = Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : 'beyond any date';
  return `the sandbox clock would be at ${at}, past ${new Date(LATEST_CLOCK_MS).toISOString()}: after that a 30-day session would end after 9999-12-31T23:59:59.999Z, the last instant a date-time can say`;
}

export class SandboxClock {
  /** How far the clock runs ahead of its base, in ms (saved with --state). */
  offsetMs = 0;
  private pinnedMs: number | undefined;
  private readonly baseMs: () => number;

  /** `base` is the clock being shifted (real time when absent); tests pass a fixed one. */
  constructor(base?: () => Date) {
    this.baseMs = base ? () => base().getTime() : Date.now;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  nowMs(): number {
    return this.pinnedMs ?? this.baseMs() + this.offsetMs;
  }

  /** Runs `fn` with the clock stopped: a record and the webhook it emits carry the same time. */
  at<T>(fn: () => T): T {
    const outer = this.pinnedMs;
    this.pinnedMs = this.nowMs();
    try {
      return fn();
    } finally {
      this.pinnedMs = outer;
    }
  }

  /** Moves the clock forward, never back; past LATEST_CLOCK_MS it refuses with a 400 saying how far it may go. */
  advance(minutes: number): Date {
    if (!Number.isFinite(minutes) || minutes < 0) throw new RangeError('minutes must be a non-negative number');
    const refused = beyondDateTimes(this.nowMs() + minutes * 60_000);
    if (refused) {
      const left = Math.floor((LATEST_CLOCK_MS - this.nowMs()) / 60_000);
      throw new SandboxError(
        400,
        `minutes ${minutes} refused: ${refused}. Move it at most ${left} minutes more; the clock never moves back, so start the sandbox afresh (a new --state file) to use earlier times again`,
      );
    }
    this.offsetMs += minutes * 60_000;
    if (this.pinnedMs !== undefined) this.pinnedMs += minutes * 60_000;
    return this.now();
  }
}
