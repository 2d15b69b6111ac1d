// The sandbox's clock: real time shifted by however far the control API has
// moved it forward, so expiry and retries can be tried without waiting.
export class SandboxClock {
    base;
    offsetMs = 0;
    /** `base` is the clock being shifted; tests pass a fixed one. */
    constructor(base = () => new Date()) {
        this.base = base;
    }
    now() {
        return new Date(this.base().getTime() + this.offsetMs);
    }
    /** Moves the clock forward; time never goes back, so expired sessions stay expired. */
    advance(minutes) {
        if (!Number.isFinite(minutes) || minutes < 0)
            throw new RangeError('minutes must be a non-negative number');
        this.offsetMs += minutes * 60_000;
        return this.now();
    }
    /** Minutes the clock runs ahead of its base. */
    get offsetMinutes() {
        return this.offsetMs / 60_000;
    }
}
