// `npm run diff` judges the working tree's bundles only when they hold the
// sources as they are (a build may have failed since), in a scratch copy.
import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';

const copy = mkdtempSync(path.join(os.tmpdir(), 'verification-contracts-diff-stale-'));
for (const entry of [
  'scripts',
  'openapi',
  'generated/openapi',
  'generated/workflows',
  'package.json',
  'package-lock.json',
  'redocly.yaml',
])
  cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
// The base: the same bundles, saved apart.
const base = path.join(copy, 'base');
mkdirSync(base);
cpSync(path.join(copy, 'generated', 'openapi'), base, { recursive: true });
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const files = (dir: string) =>
  readdirSync(path.join(copy, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
const at = (time: number, paths: string[]) => {
  for (const file of paths) utimesSync(file, time, time);
};
const now = Date.now() / 1000;
const SOURCE = 'openapi/partner/openapi.yaml';

const diff = () =>
  promisify(execFile)(process.execPath, ['scripts/diff.mjs', '--against', base], { cwd: copy }).then(
    (r) => ({ code: 0, ...r }),
    (err) => ({ code: err.code as number, stdout: err.stdout as string, stderr: err.stderr as string }),
  );

describe('npm run diff on the working tree', () => {
  it('judges bundles newer than their sources, exits 2 naming a source edited since, and judges them built again', async () => {
    at(now - 60, files('openapi'));
    at(now, files('generated'));
    const fresh = await diff();
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toMatch(/No breaking changes\./);

    at(now + 60, [path.join(copy, SOURCE)]);
    const stale = await diff();
    expect(stale.code).toBe(2);
    expect(stale.stdout).toBe('');
    expect(stale.stderr).toContain(`${SOURCE} changed after generated/openapi/partner.json was last built from it`);
    expect(stale.stderr).toContain('npm run build');

    // An edit a minute ago, after the bundles were built, and a build since.
    at(now - 120, files('generated'));
    at(now - 60, [path.join(copy, SOURCE)]);
    expect((await diff()).code).toBe(2);
    await promisify(execFile)(process.execPath, ['scripts/bundle.mjs'], { cwd: copy });
    expect((await diff()).code).toBe(0);
    // An edit since: the times decide again.
    appendFileSync(path.join(copy, SOURCE), '# edited\n');
    const result = await diff();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(SOURCE);
  });
});
