// The package as a consumer gets it: `npm pack`, then `npm install` of the
// tarball into a fresh project (with any extra packages the test needs).
// `sharedInstall` packs and installs once per test run for every test file
// that needs only the package itself.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';

export const exec = promisify(execFile);

export interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

/**
 * Packs the package into `dir`; returns the tarball's path and npm's report.
 * Without the `prepack` build: the suite runs on a finished build, and a
 * build started here would rewrite generated/ under the other test files.
 */
async function pack(dir: string): Promise<{ tarball: string; packed: Packed }> {
  const { stdout } = await exec('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
    cwd: ROOT,
  });
  const packed = JSON.parse(stdout)[0] as Packed;
  return { tarball: path.join(dir, packed.filename), packed };
}

/** A fresh ESM project at `project` with the tarball (and `extra` packages) installed. */
export async function installInto(project: string, tarball: string, extra: string[] = []): Promise<void> {
  mkdirSync(project, { recursive: true });
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: path.basename(project), private: true, type: 'module' }),
  );
  // openapi-fetch and the extras come from the npm cache when they can.
  await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...extra], { cwd: project });
}

export interface SharedInstall {
  tarball: string;
  packed: Packed;
  /** A project with only the package installed, as `npm install @verification-service/contracts` leaves it. Read-only. */
  project: string;
}

/**
 * The run's packed tarball and its install, made by whichever test file asks
 * first (test files run in separate workers: a lock folder decides, the
 * others wait for its result). Nothing may be written into it: a test that
 * needs files beside the package uses linkSharedInstall.
 */
export async function sharedInstall(): Promise<SharedInstall> {
  const dir = inject('packedPackageDir');
  const ready = path.join(dir, 'ready.json');
  const failed = path.join(dir, 'failed.txt');
  let first = true;
  try {
    mkdirSync(path.join(dir, 'lock'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    first = false;
  }
  if (first) {
    try {
      const { tarball, packed } = await pack(dir);
      const project = path.join(dir, 'package-only');
      await installInto(project, tarball);
      writeFileSync(`${ready}.part`, JSON.stringify({ tarball, packed, project }));
      renameSync(`${ready}.part`, ready);
    } catch (err) {
      writeFileSync(failed, (err as Error).message);
      throw err;
    }
  }
  for (const deadline = Date.now() + 300_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    if (existsSync(ready)) return JSON.parse(readFileSync(ready, 'utf8')) as SharedInstall;
    if (existsSync(failed))
      throw new Error(`packing or installing the package failed in another test file: ${readFileSync(failed, 'utf8')}`);
  }
  throw new Error(`the shared install in ${dir} was not ready within 300 s`);
}

/** A fresh ESM project at `project` whose node_modules is the shared install's: the files a test writes stay in its own folder. */
export async function linkSharedInstall(project: string): Promise<SharedInstall> {
  const shared = await sharedInstall();
  mkdirSync(project, { recursive: true });
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: path.basename(project), private: true, type: 'module' }),
  );
  symlinkSync(path.join(shared.project, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  return shared;
}
