// generated/ must be what the sources produce now: a spec change without a
// rebuild (or a hand edit of generated/) fails here. The check rebuilds
// everything into a scratch folder, whatever the build record says.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';

// A whole build but the lint on every run: about 6 s of CPU, more of a suite's
// wall time by what runs beside it, more on a machine others load.
it('generated/ matches a fresh build of the sources', { timeout: 180_000 }, async () => {
  const run = promisify(execFile);
  const result = await run(process.execPath, ['scripts/check-drift.mjs'], { cwd: ROOT }).catch((err) => err);
  expect(result.stderr, result.stdout).toBe('');
  expect(result.stdout).toMatch(/check-drift: generated\/ matches a fresh build of the sources \(\d+ files\)/);
});
