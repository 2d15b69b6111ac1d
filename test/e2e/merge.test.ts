// End to end, heavy: two contract pull requests as guides/contract.md makes
// them merge with plain git into a tree whose generated/ needs no rebuild.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cloneRoom, edit, git, sh } from '../helpers/fresh-clone.js';

const room = cloneRoom('vc-e2e-merge-');
afterAll(() => room.remove());

// Each branch rewords the first operation summary of one file, whatever it says now.
const CHANGES = [
  { branch: 'reword-verifications', file: 'openapi/partner/paths/verifications.yaml' },
  { branch: 'reword-shares', file: 'openapi/partner/paths/users_{userId}_shares.yaml' },
];

it('two pull requests that each change one operation merge with plain git, and the merge passes the drift check', async () => {
  const clone = room.clone('merge');
  // Both branches start from the clone's HEAD, whatever branch it was cloned from.
  const start = git(clone, 'rev-parse', 'HEAD');
  const summaries: string[] = [];
  for (const { branch, file } of CHANGES) {
    git(clone, 'checkout', '--quiet', '-b', branch, start);
    let to = '';
    edit(clone, file, (text) =>
      text.replace(/^( {2}summary: )(.+)$/m, (_line, key: string, summary: string) => {
        to = `${summary}, reworded by ${branch}`;
        return key + to;
      }),
    );
    summaries.push(to);
    const build = await sh(clone, 'npm run build');
    expect(build.code, build.stdout + build.stderr).toBe(0);
    const add = await sh(clone, `git add -A && git commit --quiet -m "${to}"`);
    expect(add.code, add.stderr).toBe(0);
    // What the pull request carries: the source and the committed outputs it changes, nothing built besides.
    const files = git(clone, 'show', '--name-only', '--format=', 'HEAD').split('\n');
    expect(files).toContain(file);
    expect(files.filter((f) => f.startsWith('generated/')).sort()).toEqual([
      'generated/openapi/partner.json',
      'generated/openapi/partner.yaml',
      'generated/types/partner.ts',
    ]);
  }
  git(clone, 'checkout', '--quiet', CHANGES[0].branch);
  const merge = await sh(clone, `git merge --no-edit ${CHANGES[1].branch}`);
  expect(merge.code, merge.stdout + merge.stderr).toBe(0);
  expect(git(clone, 'status', '--porcelain')).toBe('');
  const drift = await sh(clone, 'npm run check-drift');
  expect(drift.code, drift.stdout + drift.stderr).toBe(0);
  const bundle = readFileSync(path.join(clone, 'generated', 'openapi', 'partner.yaml'), 'utf8');
  for (const summary of summaries) expect(bundle).toContain(`summary: ${summary}`);
});
