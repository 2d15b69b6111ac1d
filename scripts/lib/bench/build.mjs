// Part 4: the build. A forced full build into a scratch folder (its printed
// per-step timings), each step alone, and a no-op rebuild of the same folder.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../paths.mjs';
import { MeasureError, runCommand } from './proc.mjs';

/** `build: bundle 1.8s, docs unchanged, …; total 6.6s` → { steps, totalMs }. */
function parseBuildLine(output) {
  const line = output.split('\n').find((l) => l.startsWith('build: '));
  if (!line) return null;
  const [list, total] = line.slice('build: '.length).split('; total ');
  const steps = {};
  for (const item of list.split(', ')) {
    const m = /^(\S+) (?:(\d+(?:\.\d+)?)s|unchanged)$/.exec(item.trim());
    if (m) steps[m[1]] = m[2] === undefined ? null : Number(m[2]) * 1000;
  }
  return { steps, totalMs: Number.parseFloat(total) * 1000 };
}

const failedSteps = (output) => [...output.matchAll(/^error in (\S+):/gm)].map((m) => m[1]);

async function build(out, force, log) {
  log(`  node scripts/build.mjs ${force ? '--force ' : ''}--out <tmp>`);
  const run = await runCommand(
    process.execPath,
    [path.join(ROOT, 'scripts', 'build.mjs'), ...(force ? ['--force'] : []), '--out', out],
    {
      cwd: ROOT,
      timeoutMs: 150_000,
    },
  );
  const output = run.stdout + run.stderr;
  const parsed = parseBuildLine(output);
  if (!parsed)
    throw new MeasureError(`the build printed no timings (exit ${run.code}):\n${output.trim().slice(-2000)}`);
  return { ...parsed, wallMs: run.ms, exitCode: run.code, failed: failedSteps(output) };
}

export async function benchBuild({ log, standalone = true }) {
  const out = await mkdtemp(path.join(os.tmpdir(), 'vc-bench-build-'));
  // The build cache keys its record by the output folder (scripts/lib/build-cache.mjs).
  const cacheFile = path.join(
    ROOT,
    'node_modules',
    '.cache',
    'verification-contracts',
    `build-${createHash('sha256').update(path.resolve(out)).digest('hex').slice(0, 12)}.json`,
  );
  try {
    const full = await build(out, true, log);
    const noop = await build(out, false, log);
    const alone = {};
    if (standalone) {
      log('  each step alone: node scripts/<step>.mjs --out <tmp>');
      // The steps the build printed; each has its own script (scripts/<step>.mjs).
      for (const step of Object.keys(full.steps)) {
        const script = path.join(ROOT, 'scripts', `${step}.mjs`);
        if (!existsSync(script)) continue;
        const run = await runCommand(process.execPath, [script, '--out', out], { cwd: ROOT, timeoutMs: 120_000 });
        alone[step] = { ms: run.ms, exitCode: run.code };
      }
    }
    const [slowestStep, slowestMs] = Object.entries(full.steps).reduce((a, b) => ((b[1] ?? 0) > (a[1] ?? 0) ? b : a));
    const [slowestAloneStep, slowestAloneMs] = standalone
      ? Object.entries(alone).reduce((a, b) => (b[1].ms > a[1].ms ? b : a), ['', { ms: 0 }])
      : [null, { ms: NaN }];
    return {
      full,
      noop,
      alone,
      slowest: {
        inBuild: { step: slowestStep, ms: slowestMs },
        alone: { step: slowestAloneStep, ms: slowestAloneMs.ms },
      },
      ratio: {
        wholeToSlowestInBuild: full.totalMs / slowestMs,
        wholeToSlowestAlone: full.totalMs / slowestAloneMs.ms,
        noopToFull: noop.totalMs / full.totalMs,
      },
      resolutionMs: 100,
    };
  } finally {
    await rm(out, { recursive: true, force: true });
    await rm(cacheFile, { force: true });
  }
}
