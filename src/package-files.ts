import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Json } from './contract/json.js';

// The same code runs from src/ (tests) and from generated/lib/src/ (the
// installed package), so files of the package are found from its root.
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === '@verification-service/contracts')
      return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('@verification-service/contracts: cannot find the package root');
    dir = parent;
  }
}

let root: string | undefined;

/** A JSON file of the package, by its path from the package's root. */
function readPackageJson(...parts: string[]): Json {
  root ??= packageRoot();
  return JSON.parse(readFileSync(path.join(root, ...parts), 'utf8'));
}

/** Reads a bundled OpenAPI document of the package. */
export const readBundledDocument = (api: 'v2' | 'partner' | 'sandbox'): Json =>
  readPackageJson('generated', 'openapi', `${api}.json`);

/** Reads an Arazzo workflow file of the package, as JSON (generated/workflows/<name>.arazzo.json). */
export const readBundledWorkflows = (name: string): Json =>
  readPackageJson('generated', 'workflows', `${name}.arazzo.json`);

/** Where the package's reference is hosted (`homepage` in its package.json). */
export const packageHomepage = (): string => readPackageJson('package.json').homepage;

/** The package's version, from its package.json. */
export const packageVersion = (): string => readPackageJson('package.json').version;
