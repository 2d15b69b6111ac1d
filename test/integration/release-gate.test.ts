// The breaking-change gate as a fresh clone meets it (a clone carries no
// tags): it finds the last release from what is committed, whatever
// unreleased changes the branch carries, and says what to do in a shallow one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { cloneRoom, committedVersion, git, sh } from '../helpers/fresh-clone.js';
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

  it('in a shallow clone it fails and says how to fetch the history or give a base', async () => {
    const shallow = room.clone('shallow', '--depth', '1');
    const result = await sh(shallow, 'npm run --silent diff');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/This clone is shallow.*git fetch --unshallow.*--base <commit or branch>/s);
  });
});
