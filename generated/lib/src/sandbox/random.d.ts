export interface RandomState {
    seed: string;
    counter: number;
}
export declare class SandboxRandom {
    private readonly seed;
    private counter;
    constructor(state?: RandomState);
    state(): RandomState;
    bytes(n: number): Buffer;
    hex(n: number): string;
    /** A version 4 UUID. */
    uuid(): string;
}
