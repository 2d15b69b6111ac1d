// A fresh clone of this repository's HEAD (no tags), this checkout's
// node_modules linked in, and shell commands run in it as a newcomer types them.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';

// The clone's commands run on this Node, and commit as somebody.
const ENV = {
  ...process.env,
  PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
  GIT_AUTHOR_NAME: 'Clone Test',
  GIT_AUTHOR_EMAIL: 'clone-test@example.com',
  GIT_COMMITTER_NAME: 'Clone Test',
  GIT_COMMITTER_EMAIL: 'clone-test@example.com',
};

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one shell line in `cwd`; never throws, whatever it exits with. No time limit: a loaded machine only makes it slower. */
export const sh = (cwd: string, line: string, env: NodeJS.ProcessEnv = {}): Promise<Result> =>
  promisify(execFile)('bash', ['-c', line], { cwd, env: { ...ENV, ...env }, maxBuffer: 256 * 1024 * 1024 }).then(
    (r) => ({ code: 0, ...r }),
    (err) => ({
      code: typeof err.code === 'number' ? err.code : 1,
      stdout: err.stdout ?? '',
      stderr: err.stderr ?? String(err),
    }),
  );

export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' }).trim();

/** A scratch folder for clones; `remove()` deletes it and everything in it. */
export function cloneRoom(prefix: string) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return {
    /** A clone of HEAD named `name`; `cloneArgs` such as `--depth 1` go to `git clone` (over file://, which honours them). */
    clone(name: string, ...cloneArgs: string[]): string {
      const at = path.join(dir, name);
      execFileSync('git', ['clone', '--quiet', ...cloneArgs, cloneArgs.length ? `file://${ROOT}` : ROOT, at], {
        env: ENV,
      });
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(at, 'node_modules'), 'dir');
      return at;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Edits a file of a clone; fails, saying what to update, when the edit changes nothing. */
export function edit(dir: string, file: string, change: (text: string) => string) {
  const full = path.join(dir, file);
  const before = readFileSync(full, 'utf8');
  const after = change(before);
  expect(after, `the edit of ${file} changed nothing; update this test to the source's current shape`).not.toBe(before);
  writeFileSync(full, after);
}

/** The version a clone's HEAD commits in package.json (the working copy's may be mid-release). */
export const committedVersion = (dir: string) => JSON.parse(git(dir, 'show', 'HEAD:package.json')).version as string;
