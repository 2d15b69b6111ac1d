// How every command of the command line reads its options and words its
// mistakes: one line naming what is wrong and where to read the options.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export const PROGRAM = 'verification-contracts';

/**
 * A mistake in the command line, or a reason the command cannot run: one line on stderr, exit 2.
 * `command` ('' for the program) names the --help to read; absent when the options are not at fault.
 */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }

  get line(): string {
    if (this.command === undefined) return `error: ${this.message}`;
    return `error: ${this.message}; see ${[PROGRAM, this.command, '--help'].filter(Boolean).join(' ')}`;
  }
}

/** -h or --help was given: `run` prints the command's help, and exits 0 without running it. */
export class HelpRequested extends Error {
  override name = 'HelpRequested';
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** The name a parseArgs message quotes: `--port` of "Option '--port <value>' argument missing", `--help` of "Option '-h, --help' …". */
const quoted = (message: string) => /'(?:-\w, )?([^' ]+)/.exec(message)?.[1] ?? '';

type Options<T, P extends boolean> = {
  args: string[];
  options: T & { help: { type: 'boolean'; short: 'h' } };
  strict: true;
  allowPositionals: P;
};

/**
 * node:util parseArgs with its errors reworded for a person: what was wrong and which --help to read.
 * Every command takes -h as --help, which throws HelpRequested with `usage`.
 */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>, P extends boolean = false>(
  command: string,
  usage: string,
  args: string[],
  options: T,
  allowPositionals?: P,
): ReturnType<typeof parseArgs<Options<T, P>>> {
  let parsed: ReturnType<typeof parseArgs<Options<T, P>>>;
  try {
    const help = { type: 'boolean', short: 'h' } as const;
    parsed = parseArgs<Options<T, P>>({
      args,
      options: { ...options, help },
      strict: true,
      allowPositionals: !!allowPositionals as P,
    });
  } catch (err) {
    const { code, message } = err as { code?: string; message: string };
    const option = quoted(message);
    const said: Record<string, string> = {
      ERR_PARSE_ARGS_UNKNOWN_OPTION: `unknown option ${option}`,
      ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL: `unexpected argument "${option}"`,
      ERR_PARSE_ARGS_INVALID_OPTION_VALUE: /does not take an argument/.test(message)
        ? `${option} takes no value`
        : `${option} needs a value`,
    };
    if (code && said[code]) throw new UsageError(said[code], command);
    throw err;
  }
  if ((parsed.values as { help?: boolean }).help) throw new HelpRequested(usage);
  return parsed;
}
