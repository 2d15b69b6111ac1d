// What `npm run build` puts back when it fails: the folders of generated/
// that are committed (the bundles, the types, the workflows), so a failed
// build leaves nothing for `git status` to show and nothing half changed for
// a reviewer. They are copied beside themselves before the build (a hidden
// folder under generated/, which .gitignore keeps out of git) and put back
// file by file with renames, so the mocks watching a bundle see it change.
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { COMMITTED_OUTPUTS } from './paths.mjs';

/** The files below `dir`, relative to it; none when it does not exist. */
async function filesBelow(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/**
 * Copies the committed folders of `out`; `restore()` makes them again exactly
 * what they were (files changed, added or removed since), `discard()` drops
 * the copy.
 */
export async function snapshotCommitted(out) {
  await mkdir(out, { recursive: true });
  const kept = await mkdtemp(path.join(out, '.build-kept-'));
  for (const name of COMMITTED_OUTPUTS) {
    await cp(path.join(out, name), path.join(kept, name), { recursive: true }).catch((err) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }
  return {
    async restore() {
      for (const name of COMMITTED_OUTPUTS) {
        const [from, to] = [path.join(kept, name), path.join(out, name)];
        const before = await filesBelow(from);
        for (const file of before) {
          // A file the build left as it was stays: a mock watching it has nothing to reload.
          const now = await readFile(path.join(to, file)).catch(() => null);
          if (now?.equals(await readFile(path.join(from, file)))) continue;
          await mkdir(path.dirname(path.join(to, file)), { recursive: true });
          await rename(path.join(from, file), path.join(to, file));
        }
        const added = (await filesBelow(to)).filter((file) => !before.includes(file));
        await Promise.all(added.map((file) => rm(path.join(to, file))));
      }
      await rm(kept, { recursive: true, force: true });
    },
    discard: () => rm(kept, { recursive: true, force: true }),
  };
}
