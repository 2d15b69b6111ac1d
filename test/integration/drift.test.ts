// The committed part of generated/ (bundles, types, workflows) must be what
// the sources and the package's version produce now (`npm run check-drift`).
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { withVersion } from '../../scripts/lib/package-version.mjs';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { copyProject } from '../../scripts/lib/project-copy.mjs';

const run = (cwd: string) =>
  promisify(execFile)(process.execPath, ['scripts/check-drift.mjs'], { cwd }).then(
    (r) => ({ code: 0, ...r }),
    (err) => ({ code: err.code as number, stdout: err.stdout as string, stderr: err.stderr as string }),
  );

const copy = copyProject('vc-drift-');
afterAll(() => copy.remove());

it('generated/openapi, types and workflows match a fresh build of the sources', async () => {
  const result = await run(ROOT);
  expect(result.stderr, result.stdout).toBe('');
  expect(result.stdout).toMatch(
    /check-drift: generated\/openapi\/, generated\/types\/, generated\/workflows\/ match a fresh build of the sources \(\d+ files\)/,
  );
});

it('names a bundle edited by hand, where it differs, and what to run', async () => {
  const bundle = path.join(copy.dir, 'generated', 'openapi', 'partner.json');
  writeFileSync(
    bundle,
    readFileSync(bundle, 'utf8').replace('"title": "Partner Integration API"', '"title": "Edited by hand"'),
  );
  const result = await run(copy.dir);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(
    'out of date: generated/openapi/partner.json (line 4: has "    \\"title\\": \\"Edited by hand\\",", the sources give',
  );
  expect(result.stderr).toMatch(
    /Run `npm run build`.* and commit generated\/openapi\/, generated\/types\/, generated\/workflows\//,
  );
});

describe('info.version', () => {
  it('is written over one line of the bundle, the rest kept as written, and a bundle without one is refused', () => {
    const bundle =
      'openapi: 3.1.0\ninfo:\n  title: T\n  description: |\n    version: not this one\n\n    More.\n  version: set-by-build\npaths: {}\n';
    expect(withVersion(bundle, '3.1.0')).toBe(bundle.replace('version: set-by-build', 'version: 3.1.0'));
    expect(() => withVersion('openapi: 3.1.0\ninfo:\n  title: T\npaths: {}\n', '3.1.0')).toThrow(
      /could not write version 3\.1\.0 into the bundle's info\.version/,
    );
  });
});
