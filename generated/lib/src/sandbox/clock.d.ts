export interface Clock {
    now(): Date;
}
export declare class SandboxClock implements Clock {
    private readonly base;
    private offsetMs;
    /** `base` is the clock being shifted; tests pass a fixed one. */
    constructor(base?: () => Date);
    now(): Date;
    /** Moves the clock forward; time never goes back, so expired sessions stay expired. */
    advance(minutes: number): Date;
    /** Minutes the clock runs ahead of its base. */
    get offsetMinutes(): number;
}
