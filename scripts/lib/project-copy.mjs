// A scratch copy of the project for running `npm run dev` on it (its test
// and its bench): the sources and what the build reads, this checkout's
// node_modules linked in, and this checkout's build record, so dev's first
// build skips every step the checkout's build already ran.
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuildCache } from './build-cache.mjs';
import { ROOT } from './paths.mjs';
import { buildSteps } from './steps.mjs';

/**
 * The scripts and generated/ whole (dev, the drift check and the build run
 * in the copy), and every other path a build step reads (scripts/lib/steps.mjs).
 */
function copiedPaths() {
  const whole = ['scripts', 'generated'];
  const inputs = Object.values(buildSteps(path.join(ROOT, 'generated'))).flatMap((step) => step.inputs);
  const paths = [...new Set([...whole, ...inputs.map((input) => path.relative(ROOT, input))])];
  // A path inside another one listed comes with it.
  return paths.filter((entry) => !paths.some((dir) => entry.startsWith(`${dir}${path.sep}`)));
}

/** Makes the copy; `remove()` deletes it and its build record. */
export function copyProject(prefix = 'vc-dev-') {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const entry of copiedPaths()) cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  // The build cache keys its record by the output folder; the paths in it
  // are relative, so the checkout's record holds for the copy.
  const record = new BuildCache(path.join(ROOT, 'generated')).file;
  const copyRecord = new BuildCache(path.join(dir, 'generated')).file;
  if (existsSync(record)) copyFileSync(record, copyRecord);
  return {
    dir,
    remove() {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
      rmSync(copyRecord, { force: true });
    },
  };
}
