// The command line as a whole: --version, -h, help [command], and a mistake
// answered with one line on stderr (exit 2) naming it and which command's
// --help to read, never a help dump. Wording is not held here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';
import { cli } from './helpers/cli.js';

describe('help and version', () => {
  it('--version prints the version of the package', async () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(await cli(['--version'])).toEqual({ code: 0, out: version, err: '' });
  });

  const usages = new Set<string>();
  const commands = ['', 'sandbox', 'conformance', 'webhooks', 'webhooks send', 'webhooks verify', 'webhooks check'];
  it.each(commands)('help %s, --help and -h print the same usage on stdout, each its own', async (command) => {
    const words = command.split(' ').filter(Boolean);
    const byHelp = await cli(['help', ...words]);
    expect(byHelp).toMatchObject({ code: 0, err: '' });
    expect(byHelp.out).toMatch(new RegExp(`^Usage: verification-contracts ${words.join(' ')}`));
    for (const flag of ['--help', '-h']) expect(await cli([...words, flag])).toEqual(byHelp);
    usages.add(byHelp.out);
  });
  it('each command has a usage of its own', () => expect(usages.size).toBe(commands.length));

  it('no command at all prints the usage on stderr, exit 2', async () => {
    const r = await cli([]);
    expect(r).toMatchObject({ code: 2, out: '' });
    expect(r.err).toBe((await cli(['--help'])).out);
  });
});

// Each mistake, the word the line must name, and the command whose --help it points at ('' for the program).
const PARTNER = ['conformance', '--api', 'partner', '--base-url', 'http://127.0.0.1:9', '--auth-key', 'k'];
const mistakes: [string[], string, string][] = [
  [['bogus'], 'bogus', ''],
  [['--bogus'], '--bogus', ''],
  [['help', 'bogus'], 'bogus', ''],
  [['webhooks', 'bogus'], 'bogus', 'webhooks'],
  [['webhooks'], 'send', 'webhooks'],
  [['sandbox', '--bogus'], '--bogus', 'sandbox'],
  [['sandbox', '-x'], '-x', 'sandbox'],
  [['sandbox', '--port'], '--port', 'sandbox'],
  [['sandbox', '--port', '--state', 's.jsonl'], '--port', 'sandbox'],
  [['sandbox', '--help=yes'], '--help', 'sandbox'],
  [['sandbox', '--port', '99999'], '99999', 'sandbox'],
  [['conformance', '--bogus'], '--bogus', 'conformance'],
  [['conformance', 'partner'], 'partner', 'conformance'],
  [['conformance', '--api', 'v3'], '--api', 'conformance'],
  [PARTNER.slice(0, -2), '--auth-key', 'conformance'],
  [['conformance', '--api', 'v2', '--base-url', 'ftp://x', '--access-token', 't'], '--base-url', 'conformance'],
  [['conformance', '--api', 'v2', ...PARTNER.slice(3)], '--auth-key', 'conformance'],
  [[...PARTNER, '--rotate-key', 'f'], '--rotate-key', 'conformance'],
  [[...PARTNER, '--max-requests', '0'], '--max-requests', 'conformance'],
  [['webhooks', 'send', '--bogus'], '--bogus', 'webhooks send'],
  [['webhooks', 'send', '--url', 'http://127.0.0.1:9'], '--key', 'webhooks send'],
  [['webhooks', 'verify', '--key'], '--key', 'webhooks verify'],
  [['webhooks', 'verify', '--key', '', '--signature', 'f'.repeat(64)], '--key', 'webhooks verify'],
  [
    ['webhooks', 'check', 'http://127.0.0.1:9', '--auth-key', 'k', '--previous-key', ''],
    '--previous',
    'webhooks check',
  ],
];
it.each(mistakes)('%j: one line on stderr naming %s, pointing at its --help, exit 2', async (args, names, command) => {
  const r = await cli(args);
  expect(r).toMatchObject({ code: 2, out: '' });
  expect(r.err.split('\n')).toHaveLength(1);
  expect(r.err).toContain(names);
  expect(r.err.endsWith(`; see ${['verification-contracts', command, '--help'].filter(Boolean).join(' ')}`)).toBe(true);
});
