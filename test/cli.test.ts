// The command line as a whole: --version, -h, help [command], and one line
// naming a mistake and where to read the options, never a help dump or the
// argument parser's own wording.
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

  const commands: [string[], RegExp][] = [
    [[], /^Usage: verification-contracts <command>/],
    [['sandbox'], /^Usage: verification-contracts sandbox /],
    [['conformance'], /^Usage: verification-contracts conformance /],
    [['webhooks'], /^Usage: verification-contracts webhooks <send\|verify\|check>/],
    [['webhooks', 'send'], /^Usage: verification-contracts webhooks send /],
    [['webhooks', 'verify'], /^Usage: verification-contracts webhooks verify /],
    [['webhooks', 'check'], /^Usage: verification-contracts webhooks check /],
  ];
  for (const [words, usage] of commands) {
    it(`help ${words.join(' ')}, ${words.join(' ')} --help and -h print the same usage on stdout`, async () => {
      const byHelp = await cli(['help', ...words]);
      expect(byHelp.code).toBe(0);
      expect(byHelp.out).toMatch(usage);
      expect(byHelp.err).toBe('');
      for (const flag of ['--help', '-h']) expect(await cli([...words, flag])).toEqual(byHelp);
    });
  }
});

describe('mistakes: one line naming it, pointing at --help', () => {
  const mistakes: [string[], string][] = [
    [['bogus'], 'error: unknown command "bogus"; see verification-contracts --help'],
    [['--bogus'], 'error: unknown option --bogus; see verification-contracts --help'],
    [['help', 'bogus'], 'error: unknown command "bogus"; see verification-contracts --help'],
    [['webhooks', 'bogus'], 'error: unknown command "webhooks bogus"; see verification-contracts webhooks --help'],
    [
      ['webhooks'],
      'error: webhooks needs a command, send, verify or check; see verification-contracts webhooks --help',
    ],
    [['sandbox', '--bogus'], 'error: unknown option --bogus; see verification-contracts sandbox --help'],
    [['sandbox', '-x'], 'error: unknown option -x; see verification-contracts sandbox --help'],
    [['sandbox', '--port'], 'error: --port needs a value; see verification-contracts sandbox --help'],
    [
      ['sandbox', '--port', '--state', 's.jsonl'],
      'error: --port needs a value; see verification-contracts sandbox --help',
    ],
    [['sandbox', '--help=yes'], 'error: --help takes no value; see verification-contracts sandbox --help'],
    [
      ['sandbox', '--port', '99999'],
      'error: --port must be a port number, 0 to 65535, not "99999"; see verification-contracts sandbox --help',
    ],
    [['conformance', '--bogus'], 'error: unknown option --bogus; see verification-contracts conformance --help'],
    [['conformance', 'partner'], 'error: unexpected argument "partner"; see verification-contracts conformance --help'],
    [
      ['conformance', '--api', 'v3'],
      'error: --api must be partner or v2; see verification-contracts conformance --help',
    ],
    [['webhooks', 'send', '--bogus'], 'error: unknown option --bogus; see verification-contracts webhooks send --help'],
    [
      ['webhooks', 'send', '--url', 'http://127.0.0.1:9'],
      'error: --key is required: the auth key the webhooks are signed with; see verification-contracts webhooks send --help',
    ],
    [['webhooks', 'verify', '--key'], 'error: --key needs a value; see verification-contracts webhooks verify --help'],
  ];
  for (const [args, line] of mistakes) {
    it(args.join(' ') || '(nothing)', async () => {
      const r = await cli(args);
      expect(r).toEqual({ code: 2, out: '', err: line });
    });
  }

  it('no command at all prints the usage on stderr, exit 2', async () => {
    const r = await cli([]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^Usage: verification-contracts <command>/);
  });
});
