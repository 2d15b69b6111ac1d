// generated/ must be what the sources produce now: a spec change without a
// rebuild (or a hand edit of generated/) fails here.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';

it('generated/ matches a fresh build of the sources', async () => {
  const run = promisify(execFile);
  const result = await run(process.execPath, ['scripts/check-drift.mjs'], { cwd: ROOT }).catch((err) => err);
  expect(result.stderr, result.stdout).toBe('');
  expect(result.stdout).toMatch(/generated\/ matches the sources/);
});
