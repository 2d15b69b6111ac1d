/** A mistake in the command line: printed with the command's usage, exit 2. */
export declare class UsageError extends Error {
    readonly usage: string;
    name: string;
    constructor(message: string, usage: string);
}
/** Exit codes of the command line. */
export declare const EXIT: {
    readonly ok: 0;
    readonly failed: 1;
    readonly usage: 2;
};
