// The pull-request workflow's gate job (.github/workflows/pull-request.yml):
// its own step scripts run as GitHub runs them, on a pull request's branch in
// a fresh clone, and the Markdown report they write parsed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneRoom, edit, git, sh } from '../helpers/fresh-clone.js';
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
