// The build's release-diff step (scripts/release-diff.mjs) in a scratch copy
// of the project: what a rename by mistake breaks, printed where the author looks.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { copyProject } from '../scripts/lib/project-copy.mjs';

// What the build reads, without .git: no history until the test makes one.
const project = copyProject('vc-release-diff-');
const copy = project.dir;
afterAll(() => project.remove());

const run = (file: string, args: string[] = []) =>
  promisify(execFile)(process.execPath, [file, ...args], { cwd: copy }).then(
    (r) => ({ code: 0, ...r }),
    (err) => ({ code: err.code as number, stdout: err.stdout as string, stderr: err.stderr as string }),
  );
const git = (...args: string[]) =>
  promisify(execFile)('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: copy });

it('says in one line that it cannot judge where there is no git history', async () => {
  const result = await run('scripts/release-diff.mjs');
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout.trim().split('\n')).toHaveLength(1);
  expect(result.stdout).toMatch(/^release-diff: skipped, /);
});

it('prints a response field renamed in its schema alone as breaking, though the lint refuses its examples', async () => {
  // The copy's one commit is its release: the newest commit to set package.json's version.
  const { version } = JSON.parse(readFileSync(path.join(copy, 'package.json'), 'utf8'));
  await git('init', '--quiet');
  await git('add', '-A');
  await git('commit', '--quiet', '-m', `Release ${version}`);
  // The answer's `url` renamed to `link` where the schema lists and requires it, and nowhere else: the examples
  // still carry `url`, which the lint refuses, as a mistaken rename leaves them.
  const schema = path.join(copy, 'openapi', 'partner', 'components', 'schemas', 'Verification.yaml');
  const before = readFileSync(schema, 'utf8');
  const renamed = before.replace(/^ {2}url:$/m, '  link:').replace(/^ {2}- url$/m, '  - link');
  expect(renamed, 'Verification.yaml lists and requires url').not.toBe(before);
  writeFileSync(schema, renamed);

  const result = await run('scripts/build.mjs', ['--only', 'lint-sources,bundle,release-diff']);
  expect(result.code, result.stdout + result.stderr).toBe(1);
  expect(result.stderr).toContain('error in lint-sources');
  const lines = result.stdout.split('\n');
  const breaks = lines.filter((line) => line.startsWith(`breaking against release ${version}: partner `));
  expect(
    breaks.some((line) => /\burl\b.*removed/.test(line)),
    result.stdout,
  ).toBe(true);
  expect(lines.find((line) => line.startsWith('release-diff: '))).toMatch(/\d+ breaking/);
  const summary = lines.findIndex((line) => line.startsWith('build: '));
  const breaking = (part: string[]) => part.filter((line) => line.startsWith('breaking against'));
  expect(breaking(lines.slice(summary))).toEqual(breaking(lines.slice(0, summary)));
  expect(lines.at(-2)).toMatch(/^release-diff: .*\d+ breaking/);
});
