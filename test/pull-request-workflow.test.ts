// The pull-request workflow as GitHub reads it, and .ci/run, the one CI
// definition its ci job runs. The gate job's steps are run on a clone in the
// integration tier (test/integration/pull-request-gate.test.ts).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';
import {
  gateJob,
  gateStep,
  jobs,
  postStep,
  runLines,
  stepsAfterGate,
  verdictStep,
  WORKFLOW,
  workflow,
} from './helpers/pull-request-workflow.js';

// The set-up block of README.md: the commands every newcomer and CI run.
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const setUp = /^## Set-up\n[\s\S]*?```sh\n([\s\S]*?)```/m.exec(readme)?.[1].split('\n').filter(Boolean) ?? [];

const ciText = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
const ciRun = ciText
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

// `engines`' lines, each a caret range `^X.Y.Z`, in the order written.
const engines = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node as string;
const engineLines = engines.split('||').map((range) => {
  const m = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(range);
  if (!m) throw new Error(`engines.node ${engines}: each range must read ^X.Y.Z for these checks`);
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
});

describe(WORKFLOW, () => {
  it('runs on every pull request, reading the repository and nothing more by default', () => {
    expect(workflow.on).toEqual({ pull_request: null });
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });

  it('has one ci job that runs .ci/run, once, in Debian on the first Node line `engines` names', () => {
    const ciJobs = jobs.filter((job) => runLines(job).includes('bash .ci/run'));
    expect(ciJobs, `a job of ${WORKFLOW} runs \`bash .ci/run\``).toHaveLength(1);
    const [ci] = ciJobs;
    expect(ci.strategy, '.ci/run covers the other Node lines itself').toBeUndefined();
    expect(ci.container?.image).toMatch(/^node:\d+-bookworm$/);
    expect(Number(/^node:(\d+)-/.exec(ci.container!.image!)![1])).toBe(engineLines[0].major);
    const checkout = ci.steps.find((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.['fetch-depth'], 'the gate in .ci/run reads the whole history').toBe(0);
    // What CI does is .ci/run's to say: the job runs nothing else of its own.
    expect(runLines(ci).filter((l) => !l.startsWith('git config '))).toEqual(['bash .ci/run']);
  });

  it('has one gate job: the whole history, an install, then the gate against the target branch in Markdown', () => {
    expect(gateStep, `a step running \`npm run --silent diff -- --base "origin/$BASE_REF" --markdown\``).toBeDefined();
    expect(gateJob!.strategy, 'the gate runs once, not per Node line').toBeUndefined();
    const checkout = gateJob!.steps.find((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.['fetch-depth']).toBe(0);
    const steps = gateJob!.steps;
    const install = steps.findIndex((s) => s.run?.trim() === 'npm ci');
    expect(install).toBeGreaterThan(-1);
    expect(install).toBeLessThan(steps.indexOf(gateStep!));
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

describe('.ci/run, the one CI definition', () => {
  it("runs the README's set-up and test commands, a command a line, in the README's order", () => {
    expect(setUp, "README.md's Set-up block").toEqual(
      expect.arrayContaining([expect.stringMatching(/^npm test\b/), 'npm run test:integration']),
    );
    // A line of its own each: under `set -e`, a failing command on the left of `&&` would not stop .ci/run.
    const commands = setUp.flatMap((line) => line.split('&&').map((c) => c.trim()));
    let at = -1;
    for (const command of commands) {
      const found = ciRun.findIndex((l, i) => i > at && l === command);
      expect(
        found,
        `.ci/run runs \`${command}\` as a line of its own, after \`${ciRun[at] ?? 'its start'}\``,
      ).toBeGreaterThan(at);
      at = found;
    }
  });

  it("runs the package's tests on each other line `engines` names, from files that exist", () => {
    const files = /^PACKAGE_TESTS=\(([^)]*)\)$/m.exec(ciText)?.[1].split(' ') ?? [];
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(existsSync(path.join(ROOT, file)), file).toBe(true);
    expect(ciRun.some((l) => l.includes('engines.node.split'))).toBe(true);
    expect(ciRun.some((l) => /vitest run --config \S+ "\$\{PACKAGE_TESTS\[@\]\}"$/.test(l))).toBe(true);
  });
});
