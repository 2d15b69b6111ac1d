export interface Clock {
    now(): Date;
}
export declare class SandboxClock implements Clock {
    private readonly base;
    private offsetMs;
    private pinnedMs;
    /** `base` is the clock being shifted; tests pass a fixed one. */
    constructor(base?: () => Date);
    now(): Date;
    /**
     * Runs `fn` with the clock stopped at `atMs` (now when absent): a request
     * happens at one instant, and a replayed change (--state) at the instant it
     * first happened.
     */
    at<T>(fn: () => T, atMs?: number): T;
    /** Moves the clock forward; time never goes back, so expired sessions stay expired. */
    advance(minutes: number): Date;
    /** How far the clock runs ahead of its base, in ms (saved with --state). */
    get offsetMilliseconds(): number;
    set offsetMilliseconds(ms: number);
    /** Minutes the clock runs ahead of its base. */
    get offsetMinutes(): number;
}
