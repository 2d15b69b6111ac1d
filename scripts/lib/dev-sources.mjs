// @ts-check
// The sources each bundle is made from: the files under openapi/ that an
// API's root reaches through `$ref`s, however indirectly. `npm run dev`
// bundles after a save the APIs whose sources changed. Texts are compared
// rather than the watcher's list of events, so no save is missed however its
// events arrive and a save that changed nothing rebuilds nothing.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { APIS, sourceOf } from './apis.mjs';
import { ROOT } from './paths.mjs';

/** The text of every file under openapi/, by absolute path. */
export async function readSources() {
  const entries = await readdir(path.join(ROOT, 'openapi'), { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  // A file removed between the listing and the reading counts as removed.
  const texts = await Promise.all(files.map(async (file) => [file, await readFile(file, 'utf8').catch(() => null)]));
  return new Map(/** @type {[string, string][]} */ (texts.filter(([, text]) => text !== null)));
}

/** The files added, changed or removed between two readings. */
export function changedFiles(/** @type {Map<string, string>} */ before, /** @type {Map<string, string>} */ now) {
  return [...new Set([...before.keys(), ...now.keys()])].filter((file) => before.get(file) !== now.get(file));
}

// The files the API's root reaches in a reading, the root among them (a file removed since stays listed).
/** @type {(api: { name: string }, texts: Map<string, string>) => Set<string>} */
function sourcesOf(api, texts) {
  const refs = (/** @type {string} */ file) =>
    [...(texts.get(file) ?? '').matchAll(/\$ref['"]?:\s*['"]?([^'"#\s]+)/g)].map(([, ref]) =>
      path.resolve(path.dirname(file), ref),
    );
  const seen = new Set();
  const queue = [path.join(ROOT, sourceOf(api))];
  while (queue.length) {
    const file = /** @type {string} */ (queue.pop());
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...refs(file));
  }
  return seen;
}

/** The names of the APIs whose sources include one of `files`. */
export function apisTouchedBy(/** @type {string[]} */ files, /** @type {Map<string, string>} */ texts) {
  return APIS.filter((api) => {
    const sources = sourcesOf(api, texts);
    return files.some((file) => sources.has(file));
  }).map((api) => api.name);
}
