// End to end, heavy: a release exactly as guides/releasing.md says, in a
// fresh clone where two contract pull requests have landed since the last
// release. The guide's `npm test` runs on one quick file (RELEASE_TEST_FILE),
// its lint included: CI runs both tiers on the branch this clone comes from,
// and what the steps themselves change is checked below.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { nextVersion } from '../../scripts/changelog.mjs';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { cloneRoom, committedVersion, edit, git, sh } from '../helpers/fresh-clone.js';

const room = cloneRoom('vc-e2e-release-');
afterAll(() => room.remove());

const guide = readFileSync(path.join(ROOT, 'guides', 'releasing.md'), 'utf8');
const block = /<!-- release-test: steps -->\n```sh\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';
const STEPS = block.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
// The one test file the release's `npm test` runs (after the lint, as every
// `npm test` does): the additions of the partner contract, which the field
// landed below must be listed in, so the step still fails on a release whose
// pull requests skipped a test they needed.
const RELEASE_TEST_FILE = 'test/partner-document.test.ts';
// A field no real change will add, so the test never collides with the API team's work.
const FIELD = 'releaseTestMarker';
const UNRELEASED = `Verifications may carry ${FIELD}.`;

/** A contract pull request landing on the clone's branch: edits, the build, one commit of everything. */
async function land(clone: string, message: string, edits: () => void) {
  edits();
  const build = await sh(clone, 'npm run build');
  expect(build.code, build.stdout + build.stderr).toBe(0);
  const commit = await sh(clone, `git add -A && git commit --quiet -m "${message}"`);
  expect(commit.code, commit.stderr).toBe(0);
}

it("runs the guide's steps in order, its npm test on one file, and ends with a clean release commit", async () => {
  expect(
    STEPS.map((l) =>
      l
        .split(/\s+/)
        .slice(0, l.startsWith('npm run') ? 3 : 2)
        .join(' '),
    ),
  ).toEqual(['npm run diff', 'npm version', 'npm run changelog', 'npm run build', 'npm test', 'git add']);
  const clone = room.clone('release');
  const released = committedVersion(clone);
  await land(clone, `Verification: optional ${FIELD}`, () => {
    // Where the recipe puts a field, whatever the schema holds already.
    edit(clone, 'openapi/partner/components/schemas/Verification.yaml', (t) =>
      t.replace(
        /^properties:\n/m,
        `properties:\n  ${FIELD}:\n    type: string\n    description: A marker the release test adds.\n    examples: [marked]\n`,
      ),
    );
    // Added to whatever ADDED_FIELDS lists (a branch may have added fields of its
    // own), in a statement of its own the formatter leaves as it is, so the
    // release's npm test (its lint) passes as the pull request's did.
    edit(
      clone,
      'test/helpers/partner-additions.ts',
      (t) => `${t}\nADDED_FIELDS.Verification = [...(ADDED_FIELDS.Verification ?? []), '${FIELD}'];\n`,
    );
    // What partners should know, under `## Unreleased`, which the release's notes take.
    edit(clone, 'CHANGELOG.md', (t) =>
      t.includes('## Unreleased\n')
        ? t.replace('## Unreleased\n', `## Unreleased\n\n- ${UNRELEASED}\n`)
        : t.replace(/^## \d/m, (heading) => `## Unreleased\n\n- ${UNRELEASED}\n\n${heading}`),
    );
  });
  let reworded = '';
  await land(clone, 'Verifications: a summary reworded', () => {
    edit(clone, 'openapi/partner/paths/verifications.yaml', (t) =>
      t.replace(/^( {2}summary: )(.+)$/m, (_line, key: string, summary: string) => {
        reworded = `${summary}, reworded`;
        return key + reworded;
      }),
    );
  });

  let bump = '';
  let preview = '';
  for (const step of STEPS) {
    // The second step takes the bump the first one's report calls for, as the guide says.
    let line = step.startsWith('npm version') ? step.replace(/npm version \w+/, `npm version ${bump}`) : step;
    if (line === 'npm test') line = `npm test -- ${RELEASE_TEST_FILE}`;
    if (line.startsWith('npm run changelog')) {
      const dry = await sh(clone, 'npm run --silent changelog -- --dry-run');
      expect(dry.code, dry.stderr).toBe(0);
      preview = dry.stdout;
    }
    const result = await sh(clone, line);
    expect(result.code, `${line}\n${result.stdout}${result.stderr}`).toBe(0);
    expect(result.stderr, line).not.toMatch(/warning/i);
    if (step.startsWith('npm run diff'))
      bump = /calls for a (major|minor|patch) release/.exec(result.stdout)?.[1] ?? '';
  }
  // Minor for the added field, or major where the branch carried a breaking change already.
  expect(['minor', 'major']).toContain(bump);
  const version = nextVersion(released, bump);
  expect(committedVersion(clone)).toBe(version);
  expect(git(clone, 'log', '-1', '--format=%s')).toBe(`Release ${version}`);
  expect(git(clone, 'status', '--porcelain')).toBe('');

  const changelog = readFileSync(path.join(clone, 'CHANGELOG.md'), 'utf8');
  const section = changelog.slice(changelog.indexOf(`## ${version} (`), changelog.indexOf(`## ${released} (`));
  expect(section).toContain(`field ${FIELD} added (optional)`);
  expect(section).toContain(UNRELEASED);
  // The dry run printed what was then written, the Unreleased entries in its notes included.
  expect(preview.trim()).toBe(section.trim());
  expect(section).not.toContain(reworded);
  // The bundles carry the version they were released as.
  for (const api of ['v2', 'partner', 'sandbox']) {
    expect(
      JSON.parse(readFileSync(path.join(clone, 'generated', 'openapi', `${api}.json`), 'utf8')).info.version,
      api,
    ).toBe(version);
  }

  const drift = await sh(clone, 'npm run check-drift');
  expect(drift.code, drift.stdout + drift.stderr).toBe(0);
  const after = await sh(clone, 'npm run --silent diff');
  expect(after.code, after.stdout + after.stderr).toBe(0);
  expect(after.stdout).toContain(
    `Contract diff: release ${version} (commit ${git(clone, 'rev-parse', '--short=7', 'HEAD')}`,
  );
  expect(after.stdout).toContain('partner (Partner Integration API): no contract changes');
});
