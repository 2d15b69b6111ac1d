// A scratch copy of the project for running `npm run dev` on it (its test
// and its bench): the sources and what the build reads, this checkout's
// node_modules linked in, and this checkout's build record, so dev's first
// build skips every step the checkout's build already ran.
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuildCache } from './build-cache.mjs';
import { ROOT } from './paths.mjs';

// What the build reads: the docs step also renders CHANGELOG.md and the part of the webhooks guide it publishes.
const COPIED = ['openapi', 'scripts', 'src', 'generated', 'redocly.yaml', '.spectral.yaml', 'package.json', 'package-lock.json', 'tsconfig.json', 'CHANGELOG.md', 'guides/webhooks.md'];

/** Makes the copy; `remove()` deletes it and its build record. */
export function copyProject(prefix = 'vc-dev-') {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const entry of COPIED) cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
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
