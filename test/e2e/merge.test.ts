// End to end, heavy: two contract pull requests as the API team makes them.
// Two branches of a fresh clone each change one operation's summary, are
// rebuilt as guides/contract.md says (`npm run build`) and committed whole
// (`git add -A`); a plain `git merge` of both leaves a tree whose committed
// generated/ matches its sources without a rebuild.
import { afterAll, expect, it } from 'vitest';
import { cloneRoom, edit, git, sh } from '../helpers/fresh-clone.js';

const room = cloneRoom('vc-e2e-merge-');
afterAll(() => room.remove());

const CHANGES = [
  {
    branch: 'create-summary',
    file: 'openapi/partner/paths/verifications.yaml',
    from: 'summary: Create a verification',
    to: 'summary: Start a verification',
  },
  {
    branch: 'shares-summary',
    file: 'openapi/partner/paths/users_{userId}_shares.yaml',
    from: 'summary: Get the shares of a user',
    to: 'summary: List the shares of a user',
  },
];

it('two pull requests that each change one operation merge with plain git, and the merge passes the drift check', async () => {
  const clone = room.clone('merge');
  for (const { branch, file, from, to } of CHANGES) {
    git(clone, 'checkout', '--quiet', '-b', branch, 'main');
    edit(clone, file, (text) => text.replace(from, to));
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
  const bundle = await sh(
    clone,
    'grep -c -e "Start a verification" -e "List the shares of a user" generated/openapi/partner.yaml',
  );
  expect(Number(bundle.stdout.trim())).toBe(2);
});
