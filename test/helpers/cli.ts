// The command line run in process, as its bin runs it: the exit status and
// what it printed on stdout and on stderr, the lines of each joined.
import { run } from '../../src/cli/index.js';

export async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(
    args,
    (line) => out.push(line),
    (line) => err.push(line),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}
