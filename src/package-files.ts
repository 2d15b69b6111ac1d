import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Json } from './contract/json.js';

// The same code runs from src/ (tests) and from generated/lib/src/ (the installed
// package): resolving the package's own name (its exports list package.json) finds its root from both.
const manifest = () => createRequire(import.meta.url).resolve('@verification-service/contracts/package.json');

/** A JSON file of the package, by its path from the package's root. */
const readPackageJson = (...parts: string[]): Json =>
  JSON.parse(readFileSync(path.join(path.dirname(manifest()), ...parts), 'utf8'));

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
