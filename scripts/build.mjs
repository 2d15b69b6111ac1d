// The whole build: lint the sources, bundle, then lint the bundles, generate
// types, validators and code samples, render docs and compile (the steps and
// their order are declared in scripts/lib/steps.mjs). Independent steps run in
// parallel; every step runs even when another fails, so one build reports
// every problem. A step whose inputs and outputs are unchanged since its last
// success is skipped (`--force` runs everything). `--only a,b` runs just
// those steps, each after the named ones it needs (`npm run lint`: a lint
// that passed on the same inputs is not run again). `npm run dev` (scripts/dev.mjs) runs the steps through `createBuild`.
// A build that fails puts the committed folders (bundles, types, workflows)
// back as they were. While `npm run dev` runs in this checkout, `npm run
// build` hands the build to it (scripts/lib/dev-handover.mjs), so one process
// writes generated/ and the servers follow what it wrote.
import { pathToFileURL } from 'node:url';
import { APIS } from './lib/apis.mjs';
import { BuildCache } from './lib/build-cache.mjs';
import { snapshotCommitted } from './lib/committed-snapshot.mjs';
import { handToDev } from './lib/dev-handover.mjs';
import { COMMITTED_OUTPUTS, fail, outRoot } from './lib/paths.mjs';
import { buildSteps } from './lib/steps.mjs';

/**
 * A build into `out` with its cache loaded. `step(name, fn?)` runs one step
 * unless unchanged (`fn` replaces the step's own function, e.g. to render
 * only the docs of the APIs that changed); `all()` runs the whole graph and
 * resolves with every step's timing and the errors, without throwing
 * (`onError` hears of each failure as it happens; the steps named in `skip`
 * are taken as done).
 */
export async function createBuild(out, { force = false } = {}) {
  const cache = new BuildCache(out, { force });
  await cache.load();
  const STEPS = buildSteps(out);

  let timings = [];
  /** A step kept per API: runs once for the APIs whose inputs changed, records each. */
  async function runPerApi(name, fn) {
    const { perApi, outputs } = STEPS[name];
    const stale = [];
    for (const api of APIS) {
      const before = await cache.unchanged(`${name}:${api.name}`, { inputs: perApi(api), outputs });
      if (before !== true) stale.push([api, before]);
    }
    if (!stale.length) return false;
    await fn(
      out,
      stale.map(([api]) => api),
    );
    await cache.passed(
      stale.map(([api, before]) => [`${name}:${api.name}`, before]),
      outputs,
    );
    return true;
  }

  function step(name, fn = STEPS[name].fn) {
    const { inputs, outputs, perApi, always } = STEPS[name];
    const start = performance.now();
    const running = always
      ? fn(out).then(() => true)
      : perApi
        ? runPerApi(name, fn)
        : cache.run(name, { inputs, outputs }, () => fn(out));
    return running.then(
      (ran) => timings.push([name, performance.now() - start, ran]),
      (err) => {
        timings.push([name, performance.now() - start, true]);
        throw Object.assign(err, { step: name });
      },
    );
  }

  async function all({ onError, skip = [] } = {}) {
    timings = [];
    const start = performance.now();
    // Each step starts once the steps it runs after (scripts/lib/steps.mjs)
    // have passed; a failed one fails every step after it with its error.
    const started = new Map();
    const run = (name) => {
      if (!started.has(name)) {
        const ready = Promise.all(STEPS[name].after.map(run));
        started.set(
          name,
          ready.then(() => (skip.includes(name) ? undefined : step(name))),
        );
      }
      return started.get(name);
    };
    const runs = Object.keys(STEPS).map(run);
    // A failure is reported as it happens, once.
    const reported = new Set();
    for (const running of runs) {
      running.catch((err) => {
        if (onError && !reported.has(err)) onError(err);
        reported.add(err);
      });
    }
    const results = await Promise.allSettled(runs);
    const errors = [...new Set(results.filter((r) => r.status === 'rejected').map((r) => r.reason))];
    return { timings: [...timings], errors, total: performance.now() - start };
  }

  return { step, all, steps: STEPS };
}

/** One line: each step's time, or "unchanged". */
export function describeTimings(timings) {
  return timings.map(([n, ms, ran]) => `${n} ${ran ? `${(ms / 1000).toFixed(1)}s` : 'unchanged'}`).join(', ');
}

/**
 * The build as `npm run build` runs it, here or in `npm run dev`
 * (scripts/lib/dev-handover.mjs): `only` names the steps to run (each after
 * the named ones it needs), and when any step fails the committed folders
 * are put back as they were (scripts/lib/committed-snapshot.mjs). Resolves
 * with the build's timings and errors, and the lines that report them.
 */
export async function buildKeepingCommitted(out, { force = false, only = null, onError } = {}) {
  const build = await createBuild(out, { force });
  // The named steps in the graph's order: `--only bundle,docs` renders the docs of the new bundle, not of one half written.
  const skip = only ? Object.keys(build.steps).filter((name) => !only.includes(name)) : [];
  const snapshot = await snapshotCommitted(out);
  const result = await build.all({ skip, onError });
  await (result.errors.length ? snapshot.restore() : snapshot.discard());
  const lines = [];
  if (result.timings.some(([, , ran]) => !ran))
    lines.push('(unchanged: passed on the same inputs and outputs before; --force runs it again)');
  lines.push(`build: ${describeTimings(result.timings)}; total ${(result.total / 1000).toFixed(1)}s`);
  const errors = result.errors.map((err) => `\nerror in ${err.step ?? 'build'}: ${err.message}`);
  if (errors.length) {
    const kept = COMMITTED_OUTPUTS.map((name) => `generated/${name}`).join(', ');
    errors.push(
      `\nThe build failed, so ${kept} were left as they were before it (the other outputs may hold this build's work); fix the errors above and run npm run build again.`,
    );
  }
  return { ...result, lines, errors };
}

/** The options of `npm run build`: `--force`, `--only a,b`; fails naming the steps when a name is unknown. */
function buildOptions(argv, out) {
  const only = argv.includes('--only') ? String(argv[argv.indexOf('--only') + 1]).split(',') : null;
  const names = Object.keys(buildSteps(out));
  const unknown = (only ?? []).filter((name) => !names.includes(name));
  if (unknown.length) fail(`--only ${unknown.join(',')}: no such step; the steps are ${names.join(', ')}`);
  return { force: argv.includes('--force'), only };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const out = outRoot(argv);
  const options = buildOptions(argv, out);
  // `npm run dev` in this checkout owns generated/: it runs the build, one at a time with its own.
  const handed = out === outRoot([]) ? await handToDev(options) : null;
  if (handed !== null) process.exit(handed);
  const { lines, errors } = await buildKeepingCommitted(out, options);
  for (const line of lines) console.log(line);
  if (errors.length) {
    for (const line of errors) console.error(line);
    process.exit(1);
  }
}
