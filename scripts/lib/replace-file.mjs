// Writing an output that something may be reading or watching: the bundles
// Prism serves and the pages `npm run dev` serves. Each file is written beside
// itself under a scratch name and renamed over the old one, so a reader sees
// the old file or the new one, never a half-written or missing one, and a
// watcher on the path sees it change (Prism's follows a rename, not a folder
// deleted and made again). Nothing deletes an output folder first: files no
// step produces any more are removed after the new ones are in place.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Replaces `file` with `data` in one rename. The scratch name is hidden and
 * ends in `.tmp` (ignored by git), in case the process dies between the two.
 */
export async function replaceFile(file, data) {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const scratch = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(scratch, data);
    await rename(scratch, file);
  } catch (err) {
    await rm(scratch, { force: true });
    throw err;
  }
}

/** Removes every file directly in `dir` whose name is not in `kept`: what no step produces any more. */
export async function removeAllBut(dir, kept) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const stale = entries.filter((entry) => entry.isFile() && !kept.includes(entry.name));
  await Promise.all(stale.map((entry) => rm(path.join(dir, entry.name), { force: true })));
}
