// What `npm run dev` bundles after a save: the files under openapi/ whose
// text differs from what the last bundle was made from, and the APIs whose
// roots reach them. The texts are compared rather than the watcher's list of
// events, so no save is missed however its events arrive (an editor's
// temporary file, a save while a rebuild runs) and a save that changed
// nothing rebuilds nothing.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { APIS, sourceOf } from './apis.mjs';
import { ROOT } from './paths.mjs';

const SOURCES = path.join(ROOT, 'openapi');

/** The text of every file under openapi/, by absolute path. */
export async function readSources() {
  const entries = await readdir(SOURCES, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  // A file removed between the listing and the reading counts as removed.
  const texts = await Promise.all(files.map(async (file) => [file, await readFile(file, 'utf8').catch(() => null)]));
  return new Map(texts.filter(([, text]) => text !== null));
}

/** The files added, changed or removed between two readings. */
export function changedFiles(before, now) {
  return [...new Set([...before.keys(), ...now.keys()])].filter((file) => before.get(file) !== now.get(file));
}

/**
 * The APIs whose root reaches one of `files` through $refs, however
 * indirectly (the sandbox's sources borrow partner and v2 schemas), in the
 * sources as `texts` holds them.
 */
export function apisTouchedBy(files, texts) {
  const refs = (file) =>
    [...(texts.get(file) ?? '').matchAll(/\$ref['"]?:\s*['"]?([^'"#\s]+)/g)].map(([, ref]) =>
      path.resolve(path.dirname(file), ref),
    );
  const touched = [];
  for (const api of APIS) {
    const seen = new Set();
    const queue = [path.join(ROOT, sourceOf(api))];
    while (queue.length) {
      const file = queue.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      queue.push(...refs(file));
    }
    if (files.some((file) => seen.has(file))) touched.push(api.name);
  }
  return touched;
}
