// The breaking-change gate as a fresh clone meets it (a clone carries no
// tags): it finds the last release from what is committed, passes a tree with
// no change, and fails a purpose-made breaking change, naming it. It holds
// whatever unreleased changes the branch carries. The release steps of
// guides/releasing.md run whole in test/e2e/release.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { cloneRoom, committedVersion, edit, git, sh } from '../helpers/fresh-clone.js';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';

const room = cloneRoom('vc-release-steps-');
afterAll(() => room.remove());

// The gate's line in CI: the `npm run diff` of .ci/run, run as CI runs it.
const gateLine = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')
  .split('\n')
  .filter((l) => /^npm run diff\b/.test(l.trim()))
  .pop();

// A fresh clone and its builds run many times slower on a loaded machine: a ceiling for a hang, not a measure.
describe('the breaking-change gate on a fresh clone', { timeout: HANG_CEILING_MS }, () => {
  let clone = '';
  beforeAll(() => {
    clone = room.clone('gate');
  }, HANG_CEILING_MS);
  const bundle = () => sh(clone, 'node scripts/build.mjs --only bundle');

  it('CI runs the gate as `npm run diff`', () => {
    expect(gateLine).toBe('npm run diff');
  });

  it('compares with the last release, found from package.json without tags', async () => {
    expect(git(clone, 'tag', '--list')).toBe('');
    // Whatever the branch carries since that release: the verdict is the gate's step in .ci/run, not this test's.
    const result = await sh(clone, gateLine!);
    const release = git(clone, 'log', '-1', '--format=%h', '--abbrev=7', '-G', '"version"', '--', 'package.json');
    expect(result.stdout).toContain(
      `Contract diff: release ${committedVersion(clone)} (commit ${release}, the last to set package.json's version)`,
    );
    // The release's second step reads the bump here.
    expect(result.stdout).toMatch(
      new RegExp(
        `^This calls for a (major|minor|patch) release after ${committedVersion(clone).replace(/\./g, '\\.')}: npm version \\1 --no-git-tag-version$`,
        'm',
      ),
    );
  });

  it('passes a tree with no change against a base given as a commit', async () => {
    const result = await sh(clone, `${gateLine} -- --base HEAD`);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('No breaking changes.');
    expect(result.stdout).toContain(`This calls for a patch release after ${committedVersion(clone)}`);
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
    const shallow = room.clone('shallow', '--depth', '1');
    const result = await sh(shallow, 'npm run --silent diff');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/This clone is shallow.*git fetch --unshallow.*--base <commit or branch>/s);
  });
});
