import { parseArgs, type ParseArgsConfig } from 'node:util';
export declare const PROGRAM = "verification-contracts";
/**
 * A mistake in the command line, or a reason the command cannot run: one
 * line on stderr, exit 2. `command` (`sandbox`, `webhooks send`, or '' for
 * the program itself) adds where to read the options; absent when the
 * options are not at fault (a port in use, a target that cannot be reached).
 */
export declare class UsageError extends Error {
    readonly command?: string | undefined;
    name: string;
    constructor(message: string, command?: string | undefined);
    /** The line printed for it. */
    get line(): string;
}
/** Exit codes of the command line. */
export declare const EXIT: {
    readonly ok: 0;
    readonly failed: 1;
    readonly usage: 2;
};
type Options<T, P extends boolean> = {
    args: string[];
    options: T & {
        help: {
            type: 'boolean';
            short: 'h';
        };
    };
    strict: true;
    allowPositionals: P;
};
/**
 * node:util parseArgs with its errors reworded for a person: what was wrong
 * and which command's --help to read, without the parser's advice about `--`.
 * Every command takes -h as --help.
 */
export declare function parseOptions<T extends NonNullable<ParseArgsConfig['options']>, P extends boolean = false>(command: string, args: string[], options: T, allowPositionals?: P): ReturnType<typeof parseArgs<Options<T, P>>>;
export {};
