#!/usr/bin/env node
// The command line of the package: picks the command (each reads its own options),
// and answers --help, help [command] and --version.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { packageVersion } from '../package-files.js';
import { sandboxCommand } from './sandbox.js';
import { EXIT, HelpRequested, PROGRAM, UsageError } from './usage.js';
import { webhooksCommand } from './webhooks.js';

const USAGE = `Usage: ${PROGRAM} <command> [options]

Commands:
  sandbox           serve a stateful sandbox of both APIs on 127.0.0.1
  conformance       check a running deployment against the contract
  webhooks send     post signed example webhooks to your receiver
  webhooks verify   check a captured webhook body against its X-SIGNATURE
  webhooks check    check how your receiver answers what the service may send
  help [command]    the options of a command (or --help after it)

Options:
  --version         print the version of the package
  -h, --help        this text`;

// Loaded on use: the runner carries the request generators (fast-check).
const conformance = () => import('./conformance.js');

export async function run(
  argv: string[],
  out = (line: string) => console.log(line),
  err = (line: string) => console.error(line),
): Promise<number> {
  const [group] = argv;
  try {
    if (!group) {
      err(USAGE);
      return EXIT.usage;
    }
    if (group === '--help' || group === '-h') throw new HelpRequested(USAGE);
    if (group === '--version') {
      out(packageVersion());
      return EXIT.ok;
    }
    // `help webhooks send` is `webhooks send --help`.
    if (group === 'help') return await run([...argv.slice(1), '--help'], out, err);
    if (group.startsWith('-')) throw new UsageError(`unknown option ${group}`, '');
    if (group === 'sandbox') return await sandboxCommand(argv.slice(1), out, err);
    if (group === 'conformance') return await (await conformance()).conformanceCommand(argv.slice(1), out, err);
    if (group === 'webhooks') return await webhooksCommand(argv.slice(1), out);
    throw new UsageError(`unknown command "${group}"`, '');
  } catch (e) {
    if (e instanceof HelpRequested) {
      out(e.message);
      return EXIT.ok;
    }
    if (e instanceof UsageError) {
      err(e.line);
      return EXIT.usage;
    }
    throw e;
  }
}

// npm links the bin through node_modules/.bin, so compare real paths.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  process.exitCode = await run(process.argv.slice(2));
}
