/** A mistake in the command line: printed with the command's usage, exit 2. */
export class UsageError extends Error {
    usage;
    name = 'UsageError';
    constructor(message, usage) {
        super(message);
        this.usage = usage;
    }
}
/** Exit codes of the command line. */
export const EXIT = { ok: 0, failed: 1, usage: 2 };
