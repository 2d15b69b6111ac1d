// The build's steps, declared once for `npm run build`, `npm run dev` and
// the drift check: what each runs, the steps it runs after (whose outputs it
// reads, or whose check must pass first) and the folders it writes. Why no
// maintained runner (wireit) runs them: K4 in guides/maintainers-decisions.md.
import path from 'node:path';
import { bundle } from '../bundle.mjs';
import { compile } from '../compile.mjs';
import { docs } from '../docs.mjs';
import { lintBundles } from '../lint-bundles.mjs';
import { lintSources } from '../lint-sources.mjs';
import { releaseDiff } from '../release-diff.mjs';
import { samples } from '../samples.mjs';
import { types } from '../types.mjs';
import { validators } from '../validators.mjs';

/** Each step: `fn(out, { only })` (`only`: the APIs dev remakes after a save), the steps it waits for, what it writes. */
export function buildSteps(out) {
  const gen = (...p) => path.join(out, ...p);
  return {
    // First: a build whose sources the lint refuses writes nothing.
    'lint-sources': { fn: lintSources, after: [], outputs: [] },
    bundle: { fn: bundle, after: ['lint-sources'], outputs: [gen('openapi'), gen('workflows')] },
    // Prints what breaks against the last release from its own bundles, so a
    // renamed field reads as a break even when the lint refuses the examples
    // that still name it, and before compile's type errors; it fails nothing.
    'release-diff': { fn: releaseDiff, after: [], outputs: [] },
    'lint-bundles': { fn: lintBundles, after: ['bundle'], outputs: [] },
    types: { fn: types, after: ['bundle'], outputs: [gen('types')] },
    validators: { fn: validators, after: ['bundle'], outputs: [gen('validators')] },
    samples: { fn: samples, after: ['bundle'], outputs: [gen('samples')] },
    // The docs carry the sandbox for Try it, bundled from src/ with the validators.
    docs: { fn: docs, after: ['samples', 'validators'], outputs: [gen('docs')] },
    compile: { fn: compile, after: ['types', 'validators'], outputs: [gen('lib')] },
  };
}

/**
 * The steps that write below any of `folders` of the output root, with the
 * steps whose outputs they read, in order: what the drift check rebuilds
 * (the lints, which write nothing, are left out).
 */
export function stepsWriting(steps, out, folders) {
  const ordered = [];
  const visit = (name) => {
    if (ordered.includes(name) || !steps[name].outputs.length) return;
    for (const before of steps[name].after) visit(before);
    ordered.push(name);
  };
  const writes = (name) => steps[name].outputs.some((output) => folders.includes(path.relative(out, output)));
  for (const name of Object.keys(steps).filter(writes)) visit(name);
  return ordered;
}
