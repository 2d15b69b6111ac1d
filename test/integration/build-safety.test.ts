// What a build leaves when it does not finish, or while it writes: no file
// of generated/ half-written or changed by a build that failed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { bundle } from '../../scripts/bundle.mjs';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { copyProject } from '../../scripts/lib/project-copy.mjs';
import { snapshot } from '../helpers/folder-snapshot.js';

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

it('a failed npm run build leaves generated/ byte for byte as it was, a pid file of a dead dev ignored', () => {
  const copy = copyProject('vc-build-fail-');
  scratch.push(copy.dir);
  const generated = path.join(copy.dir, 'generated');
  // A description every committed folder carries (bundle and types), and
  // a component nothing uses: bundled fine, refused by Redocly's lint.
  const error = path.join(copy.dir, 'openapi', 'v2', 'components', 'schemas', 'Error.yaml');
  const text = readFileSync(error, 'utf8');
  expect(text).toContain('The HTTP status of the response.');
  writeFileSync(error, text.replace('The HTTP status of the response.', 'The HTTP status (build test).'));
  const root = path.join(copy.dir, 'openapi', 'v2', 'openapi.yaml');
  writeFileSync(root, `${readFileSync(root, 'utf8')}  schemas:\n    UnusedByBuildTest:\n      type: object\n`);
  const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
  writeFileSync(path.join(generated, '.dev.pid'), `${deadPid}\n`);
  const before = snapshot(generated);
  expect(Object.keys(before)).toEqual(expect.arrayContaining(['openapi/v2.yaml', 'types/v2.ts', 'docs/v2.html']));

  const failed = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: copy.dir, encoding: 'utf8' });
  expect(failed.status, failed.stdout + failed.stderr).toBe(1);
  expect(failed.stderr).not.toContain('npm run dev');
  expect(failed.stderr).toMatch(/error in lint-sources: Redocly lint found problems[\s\S]*no-unused-components/);
  expect(snapshot(generated)).toEqual(before);
}, 300_000);

it('a full bundle replaces each bundle with a new file and removes what no source produces, leaving no scratch file', async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'vc-bundle-out-'));
  scratch.push(out);
  for (const dir of ['openapi', 'workflows']) mkdirSync(path.join(out, dir));
  writeFileSync(path.join(out, 'openapi', 'v2.json'), 'an older bundle\n');
  writeFileSync(path.join(out, 'openapi', 'removed-api.yaml'), 'no source produces this\n');
  writeFileSync(path.join(out, 'workflows', 'removed.arazzo.json'), '{}\n');
  const oldInode = statSync(path.join(out, 'openapi', 'v2.json')).ino;

  await bundle(out);
  expect(readdirSync(path.join(out, 'openapi')).sort()).toEqual(
    readdirSync(path.join(ROOT, 'generated', 'openapi')).sort(),
  );
  expect(readdirSync(path.join(out, 'workflows')).sort()).toEqual(
    readdirSync(path.join(ROOT, 'generated', 'workflows')).sort(),
  );
  expect(readFileSync(path.join(out, 'openapi', 'v2.json'), 'utf8')).toBe(
    readFileSync(path.join(ROOT, 'generated', 'openapi', 'v2.json'), 'utf8'),
  );
  // A new file renamed over the old one, which a watcher of the path (Prism's) sees replaced.
  expect(statSync(path.join(out, 'openapi', 'v2.json')).ino).not.toBe(oldInode);
}, 120_000);

it('git ignores every scratch name a build or dev writes under generated/', () => {
  const names = [
    'generated/.lib-compiling-a1b2c3/src/index.js',
    'generated/.lib-compiling-a1b2c3-previous/src/index.js',
    'generated/.dev.pid',
    'generated/openapi/.v2.yaml.0123456789ab.tmp',
  ];
  const ignored = execFileSync('git', ['check-ignore', '--no-index', ...names], { cwd: ROOT, encoding: 'utf8' });
  expect(ignored.trim().split('\n')).toEqual(names);
});
