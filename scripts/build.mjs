// The whole build: lint the sources, bundle, then lint the bundles, generate
// types, validators and code samples, render docs and compile. Independent steps run in
// parallel; every step runs even when another fails, so one build reports
// every problem. A step whose inputs and outputs are unchanged since its last
// success is skipped (`--force` runs everything).
import path from 'node:path';
import { bundle } from './bundle.mjs';
import { compile } from './compile.mjs';
import { docs } from './docs.mjs';
import { lintBundles } from './lint-bundles.mjs';
import { lintSources } from './lint-sources.mjs';
import { samples } from './samples.mjs';
import { types } from './types.mjs';
import { validators } from './validators.mjs';
import { BuildCache } from './lib/build-cache.mjs';
import { outRoot, ROOT } from './lib/paths.mjs';

const out = outRoot();
const cache = new BuildCache(out, { force: process.argv.includes('--force') });
await cache.load();

const root = (...p) => path.join(ROOT, ...p);
const gen = (...p) => path.join(out, ...p);
// Every step also depends on the tool versions and the shared script code.
const shared = [root('package-lock.json'), root('scripts', 'lib'), root('scripts', 'build.mjs')];
const STEPS = {
  'lint-sources': { fn: lintSources, inputs: [root('openapi'), root('redocly.yaml'), root('scripts', 'lint-sources.mjs')], outputs: [] },
  bundle: { fn: bundle, inputs: [root('openapi'), root('redocly.yaml'), root('scripts', 'bundle.mjs')], outputs: [gen('openapi'), gen('workflows')] },
  'lint-bundles': { fn: lintBundles, inputs: [gen('openapi'), root('.spectral.yaml'), root('scripts', 'lint-bundles.mjs')], outputs: [] },
  types: { fn: types, inputs: [gen('openapi'), root('scripts', 'types.mjs')], outputs: [gen('types')] },
  validators: { fn: validators, inputs: [gen('openapi'), root('scripts', 'validators.mjs')], outputs: [gen('validators')] },
  samples: { fn: samples, inputs: [gen('openapi'), root('scripts', 'samples.mjs')], outputs: [gen('samples')] },
  docs: { fn: docs, inputs: [gen('openapi'), gen('samples'), root('redocly.yaml'), root('scripts', 'docs.mjs'), root('scripts', 'lib', 'doc-pages.mjs'), root('openapi', 'DECISIONS.md'), root('CHANGELOG.md'), root('package.json')], outputs: [gen('docs')] },
  compile: {
    fn: compile,
    inputs: [root('src'), root('tsconfig.json'), root('generated', 'types'), root('generated', 'validators'), root('scripts', 'compile.mjs')],
    outputs: [gen('lib')],
  },
};

const timings = [];
function step(name) {
  const { fn, inputs, outputs } = STEPS[name];
  const start = performance.now();
  return cache.run(name, { inputs: [...inputs, ...shared], outputs }, () => fn(out)).then(
    (ran) => timings.push([name, performance.now() - start, ran]),
    (err) => {
      timings.push([name, performance.now() - start, true]);
      throw Object.assign(err, { step: name });
    },
  );
}

const start = performance.now();
const bundled = step('bundle');
// Compile needs the generated types and validators.
const typed = bundled.then(() => Promise.all([step('types'), step('validators')]));
const results = await Promise.allSettled([
  step('lint-sources'),
  bundled,
  bundled.then(() => step('lint-bundles')),
  typed,
  typed.then(() => step('compile')),
  bundled.then(() => step('samples')).then(() => step('docs')),
]);

const failed = [...new Set(results.filter((r) => r.status === 'rejected').map((r) => r.reason))];
const total = performance.now() - start;
const report = timings.map(([n, ms, ran]) => `${n} ${ran ? `${(ms / 1000).toFixed(1)}s` : 'unchanged'}`).join(', ');
console.log(`build: ${report}; total ${(total / 1000).toFixed(1)}s`);
if (failed.length) {
  for (const err of failed) console.error(`\nerror in ${err.step ?? 'build'}: ${err.message}`);
  process.exit(1);
}
