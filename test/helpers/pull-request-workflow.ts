// .github/workflows/pull-request.yml as GitHub reads it, and the gate job's
// steps found by what they run.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../../scripts/lib/paths.mjs';

export interface Step {
  id?: string;
  name?: string;
  uses?: string;
  with?: Record<string, unknown>;
  run?: string;
  env?: Record<string, string>;
  if?: string;
  'continue-on-error'?: boolean;
}
export interface Job {
  strategy?: { matrix?: Record<string, unknown> };
  container?: { image?: string };
  permissions?: Record<string, string>;
  steps: Step[];
}

export const WORKFLOW = '.github/workflows/pull-request.yml';
export const workflow = parse(readFileSync(path.join(ROOT, WORKFLOW), 'utf8'));
export const jobs = Object.values(workflow.jobs as Record<string, Job>);

/** Every non-empty line of a job's `run` scripts, trimmed. */
export const runLines = (job: Job) =>
  job.steps.flatMap((s) =>
    (s.run ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );

const GATE_COMMAND = /^npm run --silent diff -- --base "origin\/\$BASE_REF" --markdown\b/;

export const gateJob = jobs.find((job) => runLines(job).some((l) => GATE_COMMAND.test(l)));
export const gateStep = gateJob?.steps.find((s) => s.run?.split('\n').some((l) => GATE_COMMAND.test(l.trim())));
export const stepsAfterGate = gateJob && gateStep ? gateJob.steps.slice(gateJob.steps.indexOf(gateStep) + 1) : [];
export const postStep = stepsAfterGate.find((s) => s.run?.includes('gh api'));
export const verdictStep = gateJob?.steps.at(-1);
