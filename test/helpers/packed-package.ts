// The package as a consumer gets it: `npm pack`, then `npm install` of the
// tarball into a fresh project; `sharedInstall` does it once per run.
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

/** A fresh ESM project at `project`, with only a package.json. */
function freshProject(project: string): void {
  mkdirSync(project, { recursive: true });
  const manifest = { name: path.basename(project), private: true, type: 'module' };
  writeFileSync(path.join(project, 'package.json'), JSON.stringify(manifest));
}

/** A fresh ESM project at `project` with the tarball (and `extra` packages) installed. */
export async function installInto(project: string, tarball: string, extra: string[] = []): Promise<void> {
  freshProject(project);
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
 * The run's packed tarball and its install, made by the first test file to
 * ask (the others wait). Packed without the `prepack` build, which would
 * rewrite generated/ under the other test files. Read-only: a test that needs
 * files beside the package uses linkSharedInstall.
 */
export async function sharedInstall(): Promise<SharedInstall> {
  const dir = inject('packedPackageDir');
  const ready = path.join(dir, 'ready.json');
  const failed = path.join(dir, 'failed.txt');
  // Answers the folder it made, or undefined when another worker made it first.
  if (mkdirSync(path.join(dir, 'lock'), { recursive: true }) !== undefined) {
    try {
      const npmPack = ['pack', '--json', '--ignore-scripts', '--pack-destination', dir];
      const packed = JSON.parse((await exec('npm', npmPack, { cwd: ROOT })).stdout)[0] as Packed;
      const tarball = path.join(dir, packed.filename);
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
  freshProject(project);
  symlinkSync(path.join(shared.project, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  return shared;
}
