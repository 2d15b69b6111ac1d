// `npm run build [-- --only a,b]`: the steps of scripts/lib/steps.mjs as a
// graph, the independent ones in parallel; a failed step fails those after it
// while the others go on, so one build reports every problem. While `npm run
// dev` runs in this checkout it rebuilds on every save, and the build refuses.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fail, GENERATED } from './lib/paths.mjs';
import { runIfMain } from './lib/step.mjs';
import { buildSteps } from './lib/steps.mjs';

export const DEV_PID_FILE = path.join(GENERATED, '.dev.pid');

/** The pid of the `npm run dev` running in this checkout, or null (a file left by one that died is ignored). */
export function runningDev() {
  try {
    const pid = Number(readFileSync(DEV_PID_FILE, 'utf8'));
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** Runs the steps named into `out`; resolves with each one's time and result, and the errors (each with its `step`). */
export async function runSteps(out, names, { onError, only } = {}) {
  const steps = buildSteps(out);
  const timings = [];
  const results = {};
  const started = new Map();
  const run = (name) => {
    if (!started.has(name)) {
      const before = steps[name].after.filter((after) => names.includes(after));
      const running = Promise.all(before.map(run)).then(async () => {
        const start = performance.now();
        try {
          results[name] = await steps[name].fn(out, { only });
        } catch (err) {
          Object.assign(err, { step: name });
          onError?.(err);
          throw err;
        } finally {
          timings.push([name, performance.now() - start]);
        }
      });
      started.set(name, running);
    }
    return started.get(name);
  };
  const start = performance.now();
  const settled = await Promise.allSettled(names.map(run));
  // A failed step's error fails the steps after it too: each is listed once.
  const errors = [...new Set(settled.filter((r) => r.status === 'rejected').map((r) => r.reason))];
  return { timings, results, errors, total: performance.now() - start };
}

// release-diff's lines when something breaks, repeated last, where the author looks first:
// a response field renamed by mistake also fails compile, with errors that read as a to-do list.
export function breakingAgainstRelease(results) {
  const lines = results['release-diff'] ?? [];
  return lines.some((line) => line.startsWith('breaking against')) ? lines : [];
}

/** One line: each step's time. */
export const describeTimings = (timings) =>
  timings.map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)}s`).join(', ');

runIfMain(import.meta, async (out) => {
  const argv = process.argv.slice(2);
  const steps = buildSteps(out);
  const names = argv.includes('--only') ? String(argv[argv.indexOf('--only') + 1]).split(',') : Object.keys(steps);
  const unknown = names.filter((name) => !steps[name]);
  if (unknown.length) fail(`--only ${unknown.join(',')}: no such step; the steps are ${Object.keys(steps).join(', ')}`);
  const dev = names.some((name) => steps[name].outputs.length) ? runningDev() : null;
  if (dev)
    fail(
      `npm run dev (pid ${dev}) is running in this checkout and rebuilds generated/ on every save; stop it (Ctrl-C in its terminal, or kill ${dev}) to run a full build`,
    );
  const { timings, results, errors, total } = await runSteps(out, names);
  console.log(`build: ${describeTimings(timings)}; total ${(total / 1000).toFixed(1)}s`);
  for (const err of errors) console.error(`\nerror in ${err.step}: ${err.message}`);
  const breaking = breakingAgainstRelease(results);
  if (breaking.length) console.log(`\n${breaking.join('\n')}`);
  if (errors.length) {
    console.error(
      '\nThe build failed; a step that failed or did not run left its files in generated/ as they were. Fix the errors above and run npm run build again.',
    );
    process.exit(1);
  }
});
