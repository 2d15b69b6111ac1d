#!/usr/bin/env node
// The command line of the package: `npx verification-contracts …`.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { sandboxCommand } from './sandbox.js';
import { EXIT, UsageError } from './usage.js';
import { SEND_USAGE, sendCommand } from './webhooks-send.js';
import { VERIFY_USAGE, verifyCommand } from './webhooks-verify.js';

const USAGE = `Usage: verification-contracts <command>

Commands:
  sandbox           serve a stateful sandbox of both APIs on 127.0.0.1
  conformance       check a running deployment against the contract
  webhooks send     post signed example webhooks to your receiver
  webhooks verify   check a captured webhook body against its X-SIGNATURE

Run a command with --help for its options.`;

const WEBHOOKS_USAGE = `Usage: verification-contracts webhooks <send|verify> [options]

${SEND_USAGE.split('\n')[0]}
${VERIFY_USAGE.split('\n')[0]}`;

export async function run(argv: string[], out = (line: string) => console.log(line), err = (line: string) => console.error(line)): Promise<number> {
  const [group, command, ...rest] = argv;
  try {
    if (!group || group === '--help' || group === '-h') {
      out(USAGE);
      return group ? EXIT.ok : EXIT.usage;
    }
    if (group === 'sandbox') return await sandboxCommand(argv.slice(1), out);
    // Loaded on use: the runner carries the request generators (fast-check).
    if (group === 'conformance') return await (await import('./conformance.js')).conformanceCommand(argv.slice(1), out);
    if (group !== 'webhooks') throw new UsageError(`unknown command "${group}"`, USAGE);
    if (!command || command === '--help' || command === '-h') {
      out(WEBHOOKS_USAGE);
      return command ? EXIT.ok : EXIT.usage;
    }
    if (command === 'send') return await sendCommand(rest, out);
    if (command === 'verify') return await verifyCommand(rest, out);
    throw new UsageError(`unknown webhooks command "${command}"`, WEBHOOKS_USAGE);
  } catch (e) {
    // parseArgs reports unknown or malformed options with these codes.
    const code = (e as { code?: string }).code ?? '';
    if (e instanceof UsageError || code.startsWith('ERR_PARSE_ARGS')) {
      err(`error: ${(e as Error).message}`);
      if (e instanceof UsageError && e.usage) err(`\n${e.usage}`);
      return EXIT.usage;
    }
    throw e;
  }
}

// npm links the bin through node_modules/.bin, so compare real paths.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  process.exitCode = await run(process.argv.slice(2));
}
