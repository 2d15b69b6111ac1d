// Compiles the runtime code (src/) and the generated types to JavaScript and
// declarations: generated/lib/.
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { runTool } from './lib/run.mjs';
import { runIfMain } from './lib/step.mjs';

export async function compile(out) {
  const lib = path.join(out, 'lib');
  await rm(lib, { recursive: true, force: true });
  try {
    await runTool('tsc', ['-p', 'tsconfig.json', '--outDir', lib], { quiet: true });
  } catch (err) {
    throw new Error(`TypeScript did not compile; fix the errors in src/:\n${err.message}`);
  }
  console.log('compile: generated/lib');
}

runIfMain(import.meta, compile);
