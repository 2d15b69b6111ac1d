// The whole build: lint the sources, bundle, then lint the bundles, generate
// types, render docs and compile. Independent steps run in parallel; every
// step runs even when another fails, so one build reports every problem.
import { bundle } from './bundle.mjs';
import { compile } from './compile.mjs';
import { docs } from './docs.mjs';
import { lintBundles } from './lint-bundles.mjs';
import { lintSources } from './lint-sources.mjs';
import { types } from './types.mjs';
import { validators } from './validators.mjs';
import { outRoot } from './lib/paths.mjs';

const out = outRoot();
const timings = [];

function timed(name, fn) {
  const start = performance.now();
  return fn().then(
    (value) => {
      timings.push([name, performance.now() - start]);
      return value;
    },
    (err) => {
      timings.push([name, performance.now() - start]);
      throw Object.assign(err, { step: name });
    },
  );
}

const start = performance.now();
const bundled = timed('bundle', () => bundle(out));
// Compile needs the generated types and validators.
const typed = bundled.then(() =>
  Promise.all([timed('types', () => types(out)), timed('validators', () => validators(out))]),
);
const results = await Promise.allSettled([
  timed('lint-sources', lintSources),
  bundled,
  bundled.then(() => timed('lint-bundles', () => lintBundles(out))),
  typed,
  typed.then(() => timed('compile', () => compile(out))),
  bundled.then(() => timed('docs', () => docs(out))),
]);

const failed = [...new Set(results.filter((r) => r.status === 'rejected').map((r) => r.reason))];
const total = performance.now() - start;
console.log(
  `build: ${timings.map(([n, ms]) => `${n} ${(ms / 1000).toFixed(1)}s`).join(', ')}; total ${(total / 1000).toFixed(1)}s`,
);
if (failed.length) {
  for (const err of failed) console.error(`\nerror in ${err.step ?? 'build'}: ${err.message}`);
  process.exit(1);
}
