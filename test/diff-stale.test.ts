// `npm run diff` judges the sources as they are, bundled afresh, not the
// bundles in generated/ (a build may have failed since they were written):
// in a scratch copy, a source edited without a build is judged.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';

const copy = mkdtempSync(path.join(os.tmpdir(), 'verification-contracts-diff-stale-'));
for (const entry of ['scripts', 'openapi', 'generated/openapi', 'package.json', 'redocly.yaml'])
  cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const diff = () =>
  promisify(execFile)(process.execPath, ['scripts/diff.mjs', '--against', 'generated/openapi', '--json'], {
    cwd: copy,
  }).then(
    (r) => ({ code: 0, ...r }),
    (err) => ({ code: err.code as number, stdout: err.stdout as string, stderr: err.stderr as string }),
  );

it('judges a source edited after the bundles were built, without a build', async () => {
  const unchanged = await diff();
  expect(unchanged.code, unchanged.stderr).toBe(0);
  expect(JSON.parse(unchanged.stdout).bump).not.toBe('major');

  // The page size's bound lowered by one, whatever it is now.
  const limit = path.join(copy, 'openapi', 'partner', 'components', 'parameters', 'Limit.yaml');
  const text = readFileSync(limit, 'utf8');
  const maximum = Number(/^ {2}maximum: (\d+)$/m.exec(text)?.[1]);
  expect(maximum, 'Limit.yaml has a maximum').toBeGreaterThan(1);
  writeFileSync(limit, text.replace(/^ {2}maximum: \d+$/m, `  maximum: ${maximum - 1}`));
  const edited = await diff();
  expect(edited.code).toBe(1);
  const partner = JSON.parse(edited.stdout).apis.find((a: { name: string }) => a.name === 'partner');
  expect(partner.breaking.map((c: { kind: string }) => c.kind)).toContain('bound-narrowed');
});
