// The package as a consumer gets it: `npm pack`, then `npm install` of the
// tarball into a fresh project (with any extra packages the test needs).
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../scripts/lib/paths.mjs';

export const exec = promisify(execFile);

export interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

/** Packs the package into `dir`; returns the tarball's path and npm's report. */
export async function pack(dir: string): Promise<{ tarball: string; packed: Packed }> {
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT });
  const packed = JSON.parse(stdout)[0] as Packed;
  return { tarball: path.join(dir, packed.filename), packed };
}

/** A fresh ESM project at `project` with the tarball (and `extra` packages) installed. */
export async function installInto(project: string, tarball: string, extra: string[] = []): Promise<void> {
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: path.basename(project), private: true, type: 'module' }));
  // openapi-fetch and the extras come from the npm cache when they can.
  await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...extra], { cwd: project });
}
