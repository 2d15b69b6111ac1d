// The build's steps, declared once: what each runs, the files whose change
// makes it run again, what it writes, and the steps it runs after. Every
// runner reads this: `npm run build` runs the graph (scripts/build.mjs),
// `npm run dev` runs the steps marked `quick` first after a save and the rest
// in the background (scripts/dev.mjs), and the drift check runs the steps
// that write the committed folders into a scratch folder
// (scripts/check-drift.mjs). A new step is a new entry here. Why no
// maintained runner (wireit) runs them: K4 in guides/maintainers-decisions.md.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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
import { ROOT } from './paths.mjs';

/**
 * Each step of a build into `out`: `fn(out)` runs it; `inputs` and `outputs`
 * are the paths the build record hashes; `after` names the steps whose
 * outputs it reads; `perApi(api)`, where given, is the inputs of one API, so
 * the step is recorded per API and runs only for the APIs whose inputs
 * changed; `quick` marks the steps that bring the docs up to date, which
 * `npm run dev` runs first after a save; `always` runs a step at every build,
 * with no record.
 */
export function buildSteps(out) {
  const root = (...p) => path.join(ROOT, ...p);
  const gen = (...p) => path.join(out, ...p);
  // Every step also depends on the tool versions and the shared script code
  // (this declaration and the runner among it).
  const shared = [root('package-lock.json'), root('scripts', 'lib'), root('scripts', 'build.mjs')];
  const steps = {
    // The lints are kept per API (`perApi`): an edit of one API's sources
    // lints that API alone, a second or more of each save in `npm run dev`.
    'lint-sources': {
      fn: lintSources,
      after: [],
      inputs: [root('openapi'), root('redocly.yaml'), root('scripts', 'lint-sources.mjs')],
      perApi: (api) => [
        ...sourceDirsOf(api).map((dir) => root('openapi', dir)),
        root('redocly.yaml'),
        root('scripts', 'lint-sources.mjs'),
      ],
      outputs: [],
    },
    bundle: {
      fn: bundle,
      after: [],
      quick: true,
      // package.json: its version is every bundle's info.version.
      inputs: [root('openapi'), root('redocly.yaml'), root('scripts', 'bundle.mjs'), root('package.json')],
      outputs: [gen('openapi'), gen('workflows')],
    },
    // Prints what breaks against the last release; fails nothing, and runs at
    // every build (`always`), as its verdict hangs on the history too.
    'release-diff': {
      fn: releaseDiff,
      after: ['bundle'],
      always: true,
      inputs: [],
      outputs: [],
    },
    'lint-bundles': {
      fn: lintBundles,
      after: ['bundle'],
      inputs: [gen('openapi'), root('.spectral.yaml'), root('scripts', 'lint-bundles.mjs')],
      perApi: (api) => [
        gen('openapi', `${api.name}.yaml`),
        root('.spectral.yaml'),
        root('scripts', 'lint-bundles.mjs'),
      ],
      outputs: [],
    },
    types: {
      fn: types,
      after: ['bundle'],
      inputs: [gen('openapi'), root('scripts', 'types.mjs')],
      outputs: [gen('types')],
    },
    validators: {
      fn: validators,
      after: ['bundle'],
      inputs: [gen('openapi'), root('scripts', 'validators.mjs'), root('package.json')],
      outputs: [gen('validators')],
    },
    samples: {
      fn: samples,
      after: ['bundle'],
      quick: true,
      inputs: [gen('openapi'), root('scripts', 'samples.mjs')],
      outputs: [gen('samples')],
    },
    // The docs carry the sandbox for Try it, bundled from src/ with the validators.
    docs: {
      fn: docs,
      after: ['samples', 'validators'],
      quick: true,
      inputs: [
        gen('openapi'),
        gen('samples'),
        gen('validators'),
        root('src'),
        root('redocly.yaml'),
        root('scripts', 'docs.mjs'),
        root('scripts', 'lib', 'doc-pages.mjs'),
        root('openapi', 'DECISIONS.md'),
        root('CHANGELOG.md'),
        root('guides', 'webhooks.md'),
        root('package.json'),
      ],
      outputs: [gen('docs')],
    },
    // Compile needs the generated types and validators.
    compile: {
      fn: compile,
      after: ['types', 'validators'],
      inputs: [
        root('src'),
        root('tsconfig.json'),
        root('generated', 'types'),
        root('generated', 'validators'),
        root('scripts', 'compile.mjs'),
      ],
      outputs: [gen('lib')],
    },
  };
  for (const step of Object.values(steps)) {
    step.inputs.push(...shared);
    const own = step.perApi;
    if (own) step.perApi = (api) => [...own(api), ...shared];
  }
  return steps;
}

/** The names of `steps` with each after every step it runs after, the order of the declaration kept otherwise. */
export function inOrder(steps, names = Object.keys(steps)) {
  const ordered = [];
  const visit = (name) => {
    if (ordered.includes(name)) return;
    for (const before of steps[name].after) visit(before);
    ordered.push(name);
  };
  for (const name of names) visit(name);
  return ordered;
}

/**
 * The steps that write below any of `folders` of the output root, with the
 * steps they run after, in order: what the drift check rebuilds.
 */
export function stepsWriting(steps, out, folders) {
  const writes = (name) => steps[name].outputs.some((output) => folders.includes(path.relative(out, output)));
  return inOrder(steps, Object.keys(steps).filter(writes));
}

/**
 * The folders of openapi/ an API's sources read: its own, and every one its
 * `$ref`s reach (the control API's sources refer to partner and v2 schemas).
 */
export function sourceDirsOf(api) {
  const dirs = new Set([api.name]);
  for (const dir of dirs) {
    for (const file of readdirSync(path.join(ROOT, 'openapi', dir), { recursive: true })) {
      if (!/\.ya?ml$/.test(file)) continue;
      const text = readFileSync(path.join(ROOT, 'openapi', dir, file), 'utf8');
      for (const [, ref] of text.matchAll(/\$ref:\s*['"]?([^'"#\s]+)/g)) {
        const [top] = path
          .relative(path.join(ROOT, 'openapi'), path.resolve(ROOT, 'openapi', dir, path.dirname(file), ref))
          .split(path.sep);
        if (
          top &&
          top !== '..' &&
          existsSync(path.join(ROOT, 'openapi', top)) &&
          statSync(path.join(ROOT, 'openapi', top)).isDirectory()
        )
          dirs.add(top);
      }
    }
  }
  return [...dirs];
}
