// Compiles the runtime code (src/) and the generated types to JavaScript and
// declarations: generated/lib/. The generated validators are JavaScript with
// declarations already; they are copied beside the code that imports them.
// Modules using packages other than openapi-fetch are then bundled in place.
import path from 'node:path';
import { cp, readFile, rm } from 'node:fs/promises';
import { assertOnlyDependencies, bundleInPlace } from './lib/bundle-in-place.mjs';
import { ROOT, TSC } from './lib/paths.mjs';
import { runTool } from './lib/run.mjs';
import { runIfMain } from './lib/step.mjs';

export async function compile(out) {
  const lib = path.join(out, 'lib');
  await rm(lib, { recursive: true, force: true });
  try {
    await runTool(TSC, ['-p', 'tsconfig.json', '--outDir', lib], { quiet: true });
  } catch (err) {
    throw new Error(`TypeScript did not compile; fix the errors in src/:\n${err.message}`);
  }
  // tsc reads the validators from generated/ (as it reads the types), so they
  // are copied from there whatever the output folder.
  await cp(path.join(ROOT, 'generated', 'validators'), path.join(lib, 'generated', 'validators'), { recursive: true });
  // The sandbox server with Ajv, its fault list, its in-process entry
  // (@verification-service/contracts/sandbox), and the
  // conformance runner with fast-check (sharing the sandbox's Ajv code); the
  // command line's usage module is an entry so both use one UsageError.
  await bundleInPlace(lib, {
    entries: ['src/sandbox/server.js', 'src/sandbox/http/faults.js', 'src/sandbox/in-process.js', 'src/cli/conformance.js', 'src/cli/usage.js'],
    platform: 'node',
    ownDirs: ['src/sandbox', 'src/contract', 'src/conformance'],
  });
  const { dependencies } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
  await assertOnlyDependencies(lib, Object.keys(dependencies ?? {}));
  console.log('compile: generated/lib');
}

runIfMain(import.meta, compile);
