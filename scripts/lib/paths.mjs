// @ts-check
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

// Two TypeScript compilers, by path (both install `tsc`): TypeScript 5 checks
// what a partner's compiler sees; the native TypeScript 7 compiles the package
// and checks the repository's code and the docs' snippets in a fifth of the
// CPU time (T1).
export const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
export const TSC_NATIVE = path.join(ROOT, 'node_modules', 'typescript-native', 'bin', 'tsc');

// Where the build writes; each step takes its output root as an argument,
// which the drift check points at a scratch folder.
export const GENERATED = path.join(ROOT, 'generated');

// The folders of generated/ that are committed: what reviewers diff in a pull
// request and what merges line by line. The rest of generated/ (compiled
// code, validators, samples, rendered docs) is build output, ignored by git.
export const COMMITTED_OUTPUTS = ['openapi', 'types', 'workflows'];

/**
 * Prints `message` as an error and exits 1.
 * @param {string} message
 * @returns {never}
 */
export function fail(message) {
  console.error(`error: ${message}`);
  process.exit(1);
}
