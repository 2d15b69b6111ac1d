/** A mistake in the command line: printed with the command's usage, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

/** Exit codes of the command line. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
