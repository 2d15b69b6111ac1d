// A scratch copy of the project for the build's and dev's tests and the
// bench: no .git, this checkout's node_modules linked in.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './paths.mjs';

const LEFT_OUT = new Set(['.git', 'node_modules', 'test-results', path.join('generated', '.dev.pid')]);

/** Makes the copy; `remove()` deletes it. */
export function copyProject(prefix = 'vc-dev-') {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  cpSync(ROOT, dir, { recursive: true, filter: (from) => !LEFT_OUT.has(path.relative(ROOT, from)) });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }) };
}
