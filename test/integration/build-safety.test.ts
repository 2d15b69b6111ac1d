// What a build leaves when it does not finish: a failed `npm run build`
// (here a lint error in the sources; a record of a dev that died is
// ignored) puts the committed folders back byte for byte and says so, and
// its build record then runs the bundle again; a full bundle replaces its
// files and removes those no source produces; a compile stopped mid-way (as
// a newer save in `npm run dev` stops it) ends the compiler's every process
// before removing its scratch folder; and git ignores every scratch name a
// build writes under generated/.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundle } from '../../scripts/bundle.mjs';
import { compile } from '../../scripts/compile.mjs';
import { devRecordOf } from '../../scripts/lib/dev-handover.mjs';
import { COMMITTED_OUTPUTS, ROOT } from '../../scripts/lib/paths.mjs';
import { copyProject } from '../../scripts/lib/project-copy.mjs';
import { toolAbort } from '../../scripts/lib/run.mjs';
import { snapshot } from '../helpers/folder-snapshot.js';

const scratch: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
};
const copies: ReturnType<typeof copyProject>[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  for (const copy of copies) copy.remove();
});

const edit = (file: string, from: string, to: string) => {
  const text = readFileSync(file, 'utf8');
  expect(text, file).toContain(from);
  writeFileSync(file, text.replace(from, to));
};

describe('a failed npm run build', () => {
  it('leaves the bundles, types and workflows byte for byte as they were, says so, and its record bundles again next time', () => {
    const copy = copyProject('vc-build-fail-');
    copies.push(copy);
    const generated = path.join(copy.dir, 'generated');
    const before = Object.fromEntries(COMMITTED_OUTPUTS.map((name) => [name, snapshot(path.join(generated, name))]));
    expect(Object.keys(before.openapi)).toContain('v2.yaml');
    // A description every committed folder carries (bundle and types), and
    // a component nothing uses: bundled fine, refused by Redocly's lint.
    edit(
      path.join(copy.dir, 'openapi', 'v2', 'components', 'schemas', 'Error.yaml'),
      'The HTTP status of the response.',
      'The HTTP status of the response (build test).',
    );
    writeFileSync(
      path.join(copy.dir, 'openapi', 'v2', 'openapi.yaml'),
      `${readFileSync(path.join(copy.dir, 'openapi', 'v2', 'openapi.yaml'), 'utf8')}  schemas:\n    UnusedByBuildTest:\n      type: object\n`,
    );

    // A record left by a dev that died is no reason to hand the build over.
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const record = devRecordOf(copy.dir);
    mkdirSync(path.dirname(record), { recursive: true });
    writeFileSync(record, JSON.stringify({ pid: deadPid, root: copy.dir, url: 'http://127.0.0.1:9', token: 'stale' }));
    scratch.push(record);

    const failed = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: copy.dir, encoding: 'utf8' });
    expect(failed.status, failed.stdout + failed.stderr).toBe(1);
    expect(failed.stdout).not.toContain('npm run dev');
    // The steps that write the committed folders ran (the timings list them in the order they ended).
    expect(failed.stdout).toMatch(/build: .*\bbundle \d+\.\ds/);
    expect(failed.stdout).toMatch(/build: .*\btypes \d+\.\ds/);
    expect(failed.stderr).toMatch(/error in lint-sources: Redocly lint found problems[\s\S]*no-unused-components/);
    expect(failed.stderr).toContain(
      'The build failed, so generated/openapi, generated/types, generated/workflows were left as they were before it',
    );
    for (const name of COMMITTED_OUTPUTS)
      expect(snapshot(path.join(generated, name)), `generated/${name}`).toEqual(before[name]);
    expect(readdirSync(generated).filter((name) => name.startsWith('.'))).toEqual([]);

    // The record saw the bundle pass on these sources; its outputs, put
    // back, no longer match it, so the bundle runs again rather than "unchanged".
    const again = spawnSync(process.execPath, ['scripts/build.mjs', '--only', 'bundle'], {
      cwd: copy.dir,
      encoding: 'utf8',
    });
    expect(again.status, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toMatch(/build: bundle \d+\.\ds/);
    expect(readFileSync(path.join(generated, 'openapi', 'v2.yaml'), 'utf8')).toContain('(build test)');
  }, 300_000);
});

describe('a full bundle', () => {
  it('replaces each bundle with a new file and removes what no source produces, leaving no scratch file', async () => {
    const out = tempDir('vc-bundle-out-');
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
});

/** Processes whose command line holds `text`, with the program they run (Linux /proc). */
function processesWith(text: string) {
  const found: { pid: number; exe: string }[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ')[0];
      if (state !== 'Z' && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text))
        found.push({ pid: Number(pid), exe: readlinkSync(`/proc/${pid}/exe`) });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

describe('a compile stopped mid-way', () => {
  it('ends the native compiler as well as its Node wrapper, then removes its scratch folder', async () => {
    const out = tempDir('vc-compile-stop-');
    const controller = new AbortController();
    const compiling = toolAbort.run(controller.signal, () => compile(out));
    let settled = false;
    const outcome = compiling
      .then(
        () => 'finished',
        (err: Error) => err,
      )
      .finally(() => (settled = true));
    // The native binary (not Node) writing into this compile's scratch folder.
    const scratchDir = path.join(out, '.lib-compiling-');
    const deadline = Date.now() + 120_000;
    let native: { pid: number; exe: string } | undefined;
    while (!native) {
      native = processesWith(scratchDir).find((p) => path.basename(p.exe) !== path.basename(process.execPath));
      if (!native && (Date.now() > deadline || settled)) {
        throw new Error(`the native compiler was not seen running before the compile ${String(await outcome)}`);
      }
      if (!native) await new Promise((r) => setTimeout(r, 10));
    }
    controller.abort();
    const err = await outcome;
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('AbortError');
    expect(processesWith(scratchDir)).toEqual([]);
    expect(readdirSync(out)).toEqual([]);
  }, 180_000);
});

describe('build scratch names', () => {
  it('are ignored by git: a clone holding one of each shows nothing to commit', () => {
    const repo = tempDir('vc-ignore-');
    execFileSync('git', ['init', '-q'], { cwd: repo });
    writeFileSync(path.join(repo, '.gitignore'), readFileSync(path.join(ROOT, '.gitignore')));
    execFileSync('git', ['add', '.gitignore'], { cwd: repo });
    execFileSync(
      'git',
      ['-c', 'user.name=test', '-c', 'user.email=test@example.com', 'commit', '-q', '-m', 'ignore rules'],
      { cwd: repo },
    );
    const leftovers = [
      ['generated', '.lib-compiling-a1b2c3', 'src', 'index.js'],
      ['generated', '.lib-compiling-a1b2c3-previous', 'src', 'index.js'],
      ['generated', '.build-kept-d4e5f6', 'openapi', 'v2.yaml'],
      ['generated', 'openapi', '.v2.yaml.0123456789ab.tmp'],
    ];
    for (const parts of leftovers) {
      mkdirSync(path.join(repo, ...parts.slice(0, -1)), { recursive: true });
      writeFileSync(path.join(repo, ...parts), 'left by a build\n');
    }
    expect(existsSync(path.join(repo, 'generated', '.build-kept-d4e5f6', 'openapi', 'v2.yaml'))).toBe(true);
    expect(
      execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repo, encoding: 'utf8' }),
    ).toBe('');
  });
});
