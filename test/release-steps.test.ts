// The API team's release loop as a fresh clone meets it (a clone carries no
// tags): the breaking-change gate finds the last release from what is
// committed and fails a purpose-made breaking change, naming it; and the
// release steps of guides/releasing.md, run line by line after a one-field
// change, list that change once, warn about nothing and leave
// `npm run check-drift` clean.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';

const scratch = mkdtempSync(path.join(tmpdir(), 'vc-release-steps-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// The clone's commands run on this Node, and commit as somebody.
const ENV = {
  ...process.env,
  PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
  GIT_AUTHOR_NAME: 'Release Test',
  GIT_AUTHOR_EMAIL: 'release-test@example.com',
  GIT_COMMITTER_NAME: 'Release Test',
  GIT_COMMITTER_EMAIL: 'release-test@example.com',
};

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}
const sh = (cwd: string, line: string): Promise<Result> =>
  promisify(execFile)('bash', ['-c', line], { cwd, env: ENV, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => ({ code: 0, ...r }),
    (err) => ({ code: typeof err.code === 'number' ? err.code : 1, stdout: err.stdout ?? '', stderr: err.stderr ?? String(err) }),
  );
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' }).trim();

/** A clone of this repository's HEAD with the installed node_modules beside it. */
function freshClone(name: string, ...cloneArgs: string[]): string {
  const dir = path.join(scratch, name);
  execFileSync('git', ['clone', '--quiet', ...cloneArgs, cloneArgs.length ? `file://${ROOT}` : ROOT, dir], { env: ENV });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

function edit(dir: string, file: string, change: (text: string) => string) {
  const full = path.join(dir, file);
  const before = readFileSync(full, 'utf8');
  const after = change(before);
  expect(after, `the edit of ${file} changed nothing; update this test to the source's current shape`).not.toBe(before);
  writeFileSync(full, after);
}

const released = () => JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
// The gate's line in CI: the last `npm run diff` of .ci/run, run as CI runs it.
const gateLine = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')
  .split('\n')
  .filter((l) => /^npm run diff\b/.test(l.trim()))
  .pop();

describe('the breaking-change gate on a fresh clone', () => {
  let clone = '';
  beforeAll(() => {
    clone = freshClone('gate');
  });
  const bundle = () => sh(clone, 'node scripts/build.mjs --only bundle');

  it('CI runs the gate as `npm run diff`', () => {
    expect(gateLine).toBe('npm run diff');
  });

  it('compares with the last release found from package.json, and passes the committed state', async () => {
    expect(git(clone, 'tag', '--list')).toBe('');
    const result = await sh(clone, gateLine!);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`Contract diff: release ${released().replace(/\./g, '\\.')} \\(commit [0-9a-f]{7}, the last to set package.json's version\\)`));
  });

  it('fails a value removed from a request enum, naming it, in text and in Markdown', async () => {
    edit(clone, 'openapi/partner/components/parameters/DatetimeField.yaml', (t) => t.replace(/^ {4}- validTo\n/m, ''));
    expect((await bundle()).code).toBe(0);
    const text = await sh(clone, gateLine!);
    expect(text.code, text.stdout).toBe(1);
    expect(text.stdout).toContain('BREAKING  query parameter datetimeField: enum values removed: "validTo"');
    expect(text.stderr).toMatch(/bump the major version .* or undo them/);
    const markdown = await sh(clone, 'npm run --silent diff -- --markdown');
    expect(markdown.code).toBe(1);
    expect(markdown.stdout.split('\n')[2]).toMatch(/^❌ \*\*Breaking changes\*\*: `release /);
    git(clone, 'checkout', '--', 'openapi');
  });

  it('fails a required request field renamed, naming both names', async () => {
    edit(clone, 'openapi/partner/components/schemas/VerificationCreate.yaml', (t) =>
      t.replace(/^ {2}- redirectUrl$/m, '  - returnUrl').replace(/^ {2}redirectUrl:$/m, '  returnUrl:'),
    );
    expect((await bundle()).code).toBe(0);
    const result = await sh(clone, gateLine!);
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toContain('POST /verifications\n    BREAKING  request body: field redirectUrl removed');
    expect(result.stdout).toContain('BREAKING  request body: field returnUrl added (required)');
    git(clone, 'checkout', '--', 'openapi');
  });

  it('in a shallow clone it fails and says how to fetch the history or give a base', async () => {
    const shallow = freshClone('shallow', '--depth', '1');
    const result = await sh(shallow, 'npm run --silent diff');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/This clone is shallow.*git fetch --unshallow.*--base <commit or branch>/s);
  });
});

describe('the release steps of guides/releasing.md', () => {
  const guide = readFileSync(path.join(ROOT, 'guides', 'releasing.md'), 'utf8');
  const block = /<!-- release-test: steps -->\n```sh\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';
  const steps = block.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));

  // Its last step, the drift check, rebuilds everything into a scratch folder: a minute on a busy machine.
  it('after one added optional field, run in order in a fresh clone, they end clean', async () => {
    expect(steps[0]).toMatch(/^npm run diff\b/);
    const clone = freshClone('release');
    edit(clone, 'openapi/partner/components/schemas/Verification.yaml', (t) =>
      t.replace(/^ {2}author:$/m, '  riskScore:\n    type: integer\n    format: int32\n    minimum: 0\n    maximum: 100\n    description: Risk the service sees in the session.\n  author:'),
    );
    expect((await sh(clone, 'node scripts/build.mjs --only bundle')).code).toBe(0);
    for (const line of steps) {
      // `npm test` is this suite: the steps around it are what the release adds.
      if (/^npm test\b/.test(line.trim())) continue;
      const result = await sh(clone, line);
      expect(result.code, `${line}\n${result.stdout}${result.stderr}`).toBe(0);
      expect(result.stderr, line).not.toMatch(/warning/i);
    }
    const minor = released().replace(/^(\d+)\.(\d+)\.\d+$/, (_, major, min) => `${major}.${Number(min) + 1}.0`);
    expect(JSON.parse(readFileSync(path.join(clone, 'package.json'), 'utf8')).version).toBe(minor);
    const changelog = readFileSync(path.join(clone, 'CHANGELOG.md'), 'utf8');
    const section = changelog.slice(changelog.indexOf(`## ${minor} (`), changelog.indexOf(`## ${released()} (`));
    expect(section).not.toMatch(/first release/i);
    const partner = section.slice(section.indexOf('### partner'), section.indexOf('### sandbox'));
    expect(partner.trim().split('\n').slice(2)).toEqual([
      '- schema Verification: field riskScore added (optional); reaches 2 operations: `GET /verifications`, `GET /verifications/{verificationId}`',
    ]);

    const drift = await sh(clone, 'npm run check-drift');
    expect(drift.code, drift.stdout + drift.stderr).toBe(0);
    expect(git(clone, 'status', '--porcelain')).toBe('');
    const after = await sh(clone, 'npm run --silent diff');
    expect(after.code).toBe(0);
    expect(after.stdout).toContain(`Contract diff: release ${minor} (commit ${git(clone, 'rev-parse', '--short=7', 'HEAD')}`);
    expect(after.stdout).toContain('partner (Partner Integration API): no contract changes');
  }, 180_000);
});
