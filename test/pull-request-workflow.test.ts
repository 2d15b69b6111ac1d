// The pull-request workflow (.github/workflows/pull-request.yml) as GitHub
// reads it: it runs on every pull request; its test job runs the README's
// set-up and test command on each Node line `engines` names; its gate job
// compares with the target branch, posts the report whatever the verdict and
// then fails with the gate's exit code. The gate job's own step scripts are
// then run as GitHub runs them, on a pull request's branch in a fresh clone,
// and the Markdown report they write is parsed: the verdict line's mark
// agrees with the exit code, and a breaking change is listed with the
// operations it reaches.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../scripts/lib/paths.mjs';
import { cloneRoom, edit, git, sh } from './helpers/fresh-clone.js';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  with?: Record<string, unknown>;
  run?: string;
  env?: Record<string, string>;
  if?: string;
  'continue-on-error'?: boolean;
}
interface Job {
  strategy?: { matrix?: Record<string, unknown> };
  container?: { image?: string };
  permissions?: Record<string, string>;
  steps: Step[];
}

const WORKFLOW = '.github/workflows/pull-request.yml';
const workflow = parse(readFileSync(path.join(ROOT, WORKFLOW), 'utf8'));
const jobs = Object.values(workflow.jobs as Record<string, Job>);
const runLines = (job: Job) =>
  job.steps.flatMap((s) =>
    (s.run ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );
const GATE_COMMAND = /^npm run --silent diff -- --base "origin\/\$BASE_REF" --markdown\b/;

const gateJob = jobs.find((job) => runLines(job).some((l) => GATE_COMMAND.test(l)));
const gateStep = gateJob?.steps.find((s) => s.run?.split('\n').some((l) => GATE_COMMAND.test(l.trim())));
const stepsAfterGate = gateJob && gateStep ? gateJob.steps.slice(gateJob.steps.indexOf(gateStep) + 1) : [];
const postStep = stepsAfterGate.find((s) => s.run?.includes('gh api'));
const verdictStep = gateJob?.steps.at(-1);

// The set-up block of README.md: the commands every newcomer and CI run.
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const setUp = /^## Set-up\n[\s\S]*?```sh\n([\s\S]*?)```/m.exec(readme)?.[1].split('\n').filter(Boolean) ?? [];

/** Whether `job` runs `lines` one after another, each a whole line of its steps. */
const runsInOrder = (job: Job, lines: string[]) => {
  const all = runLines(job);
  return all.some((_, start) => lines.every((line, i) => all[start + i] === line));
};

describe(WORKFLOW, () => {
  it('runs on every pull request, reading the repository and nothing more by default', () => {
    expect(workflow.on).toEqual({ pull_request: null });
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });

  it("has a test job that runs the README's set-up and test command on each Node line `engines` names", () => {
    expect(setUp, "README.md's Set-up block").toEqual(expect.arrayContaining([expect.stringMatching(/^npm test\b/)]));
    const testJobs = jobs.filter((job) => runsInOrder(job, setUp));
    expect(testJobs, `a job of ${WORKFLOW} runs these lines in this order: ${setUp.join(' / ')}`).toHaveLength(1);
    const engines = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node as string;
    const lines = [...engines.matchAll(/\^(\d+)\./g)].map((m) => Number(m[1]));
    expect(testJobs[0].strategy?.matrix?.node).toEqual(lines);
    expect(testJobs[0].container?.image).toContain('${{ matrix.node }}');
  });

  it('has one gate job: the whole history, a build, then the gate against the target branch in Markdown', () => {
    expect(gateStep, `a step running \`npm run --silent diff -- --base "origin/$BASE_REF" --markdown\``).toBeDefined();
    expect(gateJob!.strategy, 'the gate runs once, not per Node line').toBeUndefined();
    const checkout = gateJob!.steps.find((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.['fetch-depth']).toBe(0);
    const steps = gateJob!.steps;
    const build = steps.findIndex((s) => s.run?.trim() === 'npm ci && npm run build');
    expect(build).toBeGreaterThan(-1);
    expect(build).toBeLessThan(steps.indexOf(gateStep!));
    expect(gateStep!.id).toBe('gate');
    expect(gateStep!.env).toEqual({ BASE_REF: '${{ github.base_ref }}' });
    expect(gateJob!.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
  });

  it("posts the report after the gate whatever its verdict, at best effort, and then exits with the gate's code", () => {
    expect(postStep, 'a step after the gate posting its report with `gh api`').toBeDefined();
    // The gate step records its code and passes (run below), so a step with no condition runs after it.
    for (const step of stepsAfterGate) {
      if (step.if !== undefined) expect(step.if, step.name).toMatch(/always\(\)|!cancelled\(\)/);
    }
    expect(postStep!['continue-on-error']).toBe(true);
    expect(postStep!.env?.REPORT).toBe('${{ steps.gate.outputs.report }}');
    expect(verdictStep).not.toBe(postStep);
    expect(verdictStep!.env).toEqual({ GATE_CODE: '${{ steps.gate.outputs.code }}' });
    expect(verdictStep!.run?.trim()).toBe('exit "$GATE_CODE"');
  });
});

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
