// The breaking-change gate in fresh clones: as .ci/run runs it, and as the
// pull-request workflow's gate job (.github/workflows/pull-request.yml) runs
// its own step scripts on a pull request's branch, the report they write parsed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';
import { cloneRoom, committedVersion, edit, git, sh } from '../helpers/fresh-clone.js';
import { gateStep, type Step, verdictStep } from '../helpers/pull-request-workflow.js';

describe("the gate job's steps on a pull request's branch of a fresh clone", () => {
  const room = cloneRoom('vc-pull-request-');
  // The runner's side: each run's step scripts, RUNNER_TEMP, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY.
  const runner = mkdtempSync(path.join(tmpdir(), 'vc-pull-request-runner-'));
  afterAll(() => {
    room.remove();
    rmSync(runner, { recursive: true, force: true });
  });
  let clone = '';
  beforeAll(() => {
    clone = room.clone('pull-request');
    // The target branch as actions/checkout leaves it with fetch-depth 0: a remote branch beside the pull request's.
    git(clone, 'update-ref', 'refs/remotes/origin/target', 'HEAD');
    git(clone, 'checkout', '--quiet', '-b', 'proposal');
  });

  /** Runs a step's script as GitHub does, with its `env` and the expressions GitHub would put in them. */
  async function runStep(step: Step, expressions: Record<string, string>, github: { RUNNER_TEMP: string }) {
    expect(step.run, `${step.name}: its script`).not.toContain('${{');
    const env = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([name, value]) => [
        name,
        value.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
          expect(expressions, `${step.name}: the value of ${expression}`).toHaveProperty([expression]);
          return expressions[expression];
        }),
      ]),
    );
    const script = path.join(github.RUNNER_TEMP, `${step.id ?? 'step'}.sh`);
    writeFileSync(script, step.run!);
    return sh(clone, `bash --noprofile --norc -eo pipefail ${JSON.stringify(script)}`, { ...env, ...github });
  }

  /** The gate step, then the job's last step with the code it recorded. */
  async function gateThenVerdict(baseRef = 'target') {
    const temp = mkdtempSync(path.join(runner, 'run-'));
    const github = {
      RUNNER_TEMP: temp,
      GITHUB_OUTPUT: path.join(temp, 'output'),
      GITHUB_STEP_SUMMARY: path.join(temp, 'summary'),
    };
    writeFileSync(github.GITHUB_OUTPUT, '');
    writeFileSync(github.GITHUB_STEP_SUMMARY, '');
    const gate = await runStep(gateStep!, { 'github.base_ref': baseRef }, github);
    expect(gate.code, `the gate step passes whatever the verdict, so the report is posted\n${gate.stderr}`).toBe(0);
    const outputs = Object.fromEntries(
      readFileSync(github.GITHUB_OUTPUT, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(/=(.*)/s).slice(0, 2)),
    );
    const report = readFileSync(outputs.report, 'utf8');
    expect(readFileSync(github.GITHUB_STEP_SUMMARY, 'utf8')).toContain(report);
    const verdict = await runStep(verdictStep!, { 'steps.gate.outputs.code': outputs.code }, github);
    expect(verdict.code, "the job's last step exits with the gate's code").toBe(Number(outputs.code));
    // The first line under the report's heading carries the verdict.
    const verdictLine = report.split('\n').find((l) => l.trim() && !l.startsWith('#')) ?? '';
    return { code: Number(outputs.code), mark: /^(❌|⚠️|✅)/u.exec(verdictLine)?.[1], report, stderr: gate.stderr };
  }

  const bundle = async () => {
    const result = await sh(clone, 'node scripts/build.mjs --only bundle');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    git(clone, 'commit', '--quiet', '-am', 'The pull request');
  };

  it('no contract change: ✅, exit 0', async () => {
    const { code, mark, report } = await gateThenVerdict();
    expect(mark, report).toBe('✅');
    expect(code).toBe(0);
  });

  it('a narrower `limit`: ❌, exit 1, listed once with every operation that takes the parameter', async () => {
    edit(clone, 'openapi/partner/components/parameters/Limit.yaml', (t) =>
      t.replace(/^ {2}maximum: 50$/m, '  maximum: 40'),
    );
    await bundle();
    const { code, mark, report, stderr } = await gateThenVerdict();
    expect(mark, report).toBe('❌');
    expect(code).toBe(1);
    expect(stderr).toMatch(/bump the major version .* or undo them/);
    const section = /^### Breaking changes \((\d+)\)\n\n((?:.+\n)+)/m.exec(report);
    expect(section?.[1], report).toBe('1');
    const [entry, places] = section![2].trimEnd().split('\n');
    expect(entry).toMatch(/^- \*\*partner\*\* `query parameter limit: maximum 50 → 40` .*; reaches 6 operations$/);
    const bundled = JSON.parse(readFileSync(path.join(clone, 'generated/openapi/partner.json'), 'utf8'));
    const takingLimit = Object.entries(
      bundled.paths as Record<string, Record<string, { parameters?: { $ref?: string }[] }>>,
    ).flatMap(([route, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.parameters?.some((p) => p.$ref === '#/components/parameters/Limit'))
        .map(([method]) => `${method.toUpperCase()} ${route}`),
    );
    expect(takingLimit).toHaveLength(6);
    expect([...places.matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort()).toEqual(takingLimit.sort());
  });

  it('a changed pattern the gate cannot judge: ⚠️, exit 1', async () => {
    git(clone, 'reset', '--quiet', '--hard', 'origin/target');
    edit(clone, 'openapi/partner/components/schemas/E164PhoneNumber.yaml', (t) => t.replace('{1,14}', '{6,14}'));
    await bundle();
    const { code, mark, report } = await gateThenVerdict();
    expect(mark, report).toBe('⚠️');
    expect(code).toBe(1);
    expect(report).toMatch(/^### To review by hand \(\d+\)$/m);
  });

  it('a target branch the clone lacks: the report says the gate stopped, with its message, and the job fails', async () => {
    const { code, mark, report } = await gateThenVerdict('no-such-branch');
    expect(mark, report).toBe('❌');
    expect(code).toBe(1);
    expect(report).toContain('The gate stopped before its report');
    expect(report).toContain('--base origin/no-such-branch is not a commit, branch or tag of this repository');
  });
});

// The gate's line in CI: the `npm run diff` of .ci/run, run as CI runs it.
const gateLine = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')
  .split('\n')
  .filter((l) => /^npm run diff\b/.test(l.trim()))
  .pop();

// The gate of .ci/run as a fresh clone meets it, with no tags, whatever unreleased changes the branch carries.
// A fresh clone runs many times slower on a loaded machine: a ceiling for a hang, not a measure.
describe('the breaking-change gate on a fresh clone', { timeout: HANG_CEILING_MS }, () => {
  const room = cloneRoom('vc-release-steps-');
  afterAll(() => room.remove());
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
