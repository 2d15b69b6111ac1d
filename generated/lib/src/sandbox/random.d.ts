export interface RandomState {
    seed: string;
    counter: number;
}
export declare class SandboxRandom {
    private seed;
    private counter;
    /** seed || counter (64-bit big-endian), hashed in one call per block. */
    private block;
    constructor(state?: RandomState);
    /** Continues from a saved point of the sequence. */
    restore(state: RandomState): void;
    state(): RandomState;
    bytes(n: number): Buffer;
    hex(n: number): string;
    /** A version 4 UUID. */
    uuid(): string;
}
