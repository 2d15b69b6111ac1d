// The sandbox's clock: real time shifted by however far the control API has
// moved it forward, so expiry and retries can be tried without waiting.
export class SandboxClock {
    base;
    offsetMs = 0;
    pinnedMs;
    /** `base` is the clock being shifted; tests pass a fixed one. */
    constructor(base = () => new Date()) {
        this.base = base;
    }
    now() {
        return new Date(this.pinnedMs ?? this.base().getTime() + this.offsetMs);
    }
    /**
     * Runs `fn` with the clock stopped at `atMs` (now when absent): a request
     * happens at one instant, and a replayed change (--state) at the instant it
     * first happened.
     */
    at(fn, atMs = this.now().getTime()) {
        const outer = this.pinnedMs;
        this.pinnedMs = atMs;
        try {
            return fn();
        }
        finally {
            this.pinnedMs = outer;
        }
    }
    /** Moves the clock forward; time never goes back, so expired sessions stay expired. */
    advance(minutes) {
        if (!Number.isFinite(minutes) || minutes < 0)
            throw new RangeError('minutes must be a non-negative number');
        this.offsetMs += minutes * 60_000;
        if (this.pinnedMs !== undefined)
            this.pinnedMs += minutes * 60_000;
        return this.now();
    }
    /** How far the clock runs ahead of its base, in ms (saved with --state). */
    get offsetMilliseconds() {
        return this.offsetMs;
    }
    set offsetMilliseconds(ms) {
        this.offsetMs = ms;
    }
    /** Minutes the clock runs ahead of its base. */
    get offsetMinutes() {
        return this.offsetMs / 60_000;
    }
}
