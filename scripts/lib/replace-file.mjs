// Writing an output something may be reading or watching (the bundles Prism
// serves, the pages of `npm run dev`): a reader sees the old file or the new
// one, never a half-written or missing one, and Prism's watcher, which
// follows a rename but not a folder made again, sees it change.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Replaces `file` with `data` in one rename; the scratch name ends in `.tmp`, which git ignores. */
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
