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

/** Reads a bundled OpenAPI document of the package. */
export function readBundledDocument(api: 'v2' | 'partner' | 'sandbox'): Json {
  root ??= packageRoot();
  return JSON.parse(readFileSync(path.join(root, 'generated', 'openapi', `${api}.json`), 'utf8'));
}

/** Reads an Arazzo workflow file of the package, as JSON (generated/workflows/<name>.arazzo.json). */
export function readBundledWorkflows(name: string): Json {
  root ??= packageRoot();
  return JSON.parse(readFileSync(path.join(root, 'generated', 'workflows', `${name}.arazzo.json`), 'utf8'));
}

/** Where the package's reference is hosted (`homepage` in its package.json). */
export function packageHomepage(): string {
  root ??= packageRoot();
  return JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).homepage;
}

/** The package's version, from its package.json. */
export function packageVersion(): string {
  root ??= packageRoot();
  return JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
}
