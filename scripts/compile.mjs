// Compiles src/ and the generated types into generated/lib/ (the validators
// copied beside, modules using packages other than openapi-fetch bundled in
// place) in a scratch folder that replaces it only when all succeeded: a
// failed compile leaves the last good one, which `npm run dev`'s sandbox runs.
import path from 'node:path';
import { cp, mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { assertOnlyDependencies, bundleInPlace } from './lib/bundle-in-place.mjs';
import { ROOT, TSC_NATIVE } from './lib/paths.mjs';
import { runTool } from './lib/run.mjs';
import { runIfMain } from './lib/step.mjs';

export async function compile(out) {
  const lib = path.join(out, 'lib');
  // Beside generated/lib, on the same file system (so a rename swaps it in)
  // and at the same depth (so nothing written relative to it changes).
  await mkdir(out, { recursive: true });
  const next = await mkdtemp(path.join(out, '.lib-compiling-'));
  try {
    await compileInto(next);
    const previous = `${next}-previous`;
    await rename(lib, previous).catch((err) => {
      if (err.code !== 'ENOENT') throw err;
    });
    await rename(next, lib);
    await rm(previous, { recursive: true, force: true });
  } finally {
    await rm(next, { recursive: true, force: true });
  }
  console.log('compile: generated/lib');
}

async function compileInto(lib) {
  try {
    await runTool(TSC_NATIVE, ['-p', 'tsconfig.json', '--outDir', lib], { quiet: true });
  } catch (err) {
    throw new Error(
      `TypeScript did not compile; generated/lib is left as the last compile that succeeded. Fix the errors below (in src/, or in the edit of openapi/ that changed the types src/ uses), then build again:\n${err.message}`,
    );
  }
  // tsc reads the validators from generated/ (as it reads the types), so they
  // are copied from there whatever the output folder.
  await cp(path.join(ROOT, 'generated', 'validators'), path.join(lib, 'generated', 'validators'), { recursive: true });
  // The sandbox's fetch door (@verification-service/contracts/sandbox/fetch)
  // first, for any runtime: no Node built-in, no chunk shared with the node
  // bundle below (which then keeps its file).
  const runtimeNeutral = ['src/sandbox/fetch.js'];
  await bundleInPlace(lib, { entries: runtimeNeutral, platform: 'browser' });
  // The Node entries, sharing Ajv and fast-check: the sandbox server, the fault list and options the command
  // line reads, the in-process sandbox, the conformance runner; usage.js so all throw one UsageError, and
  // the JSON Pointer reader, which the webhook helpers' examples import.
  await bundleInPlace(lib, {
    keep: runtimeNeutral,
    entries: [
      'src/sandbox/server.js',
      'src/sandbox/http/faults.js',
      'src/sandbox/options.js',
      'src/sandbox/in-process.js',
      'src/cli/conformance.js',
      'src/cli/usage.js',
      'src/contract/json-pointer.js',
    ],
    platform: 'node',
    ownDirs: ['src/sandbox', 'src/contract', 'src/conformance'],
  });
  // The sandbox's documents and request validators are inlined in both doors' bundles.
  for (const file of ['sandbox-contract.js', 'sandbox-contract.d.ts'])
    await rm(path.join(lib, 'generated', 'validators', file));
  const { dependencies } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
  await assertOnlyDependencies(lib, Object.keys(dependencies ?? {}));
}

runIfMain(import.meta, compile);
