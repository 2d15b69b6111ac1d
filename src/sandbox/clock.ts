// The sandbox's clock: real time shifted by however far the control API has
// moved it forward, so expiry and retries can be tried without waiting.

export interface Clock {
  now(): Date;
}

export class SandboxClock implements Clock {
  private offsetMs = 0;

  /** `base` is the clock being shifted; tests pass a fixed one. */
  constructor(private readonly base: () => Date = () => new Date()) {}

  now(): Date {
    return new Date(this.base().getTime() + this.offsetMs);
  }

  /** Moves the clock forward; time never goes back, so expired sessions stay expired. */
  advance(minutes: number): Date {
    if (!Number.isFinite(minutes) || minutes < 0) throw new RangeError('minutes must be a non-negative number');
    this.offsetMs += minutes * 60_000;
    return this.now();
  }

  /** Minutes the clock runs ahead of its base. */
  get offsetMinutes(): number {
    return this.offsetMs / 60_000;
  }
}
