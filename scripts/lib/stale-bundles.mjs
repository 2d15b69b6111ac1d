// @ts-check
// Whether the working tree's bundles (generated/openapi/<api>.json) were
// built from the sources as they are now. `npm run diff` judges those
// bundles; after a build that failed they are the last good build's, and a
// change to the sources would be judged by documents that do not hold it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { APIS } from './apis.mjs';
import { BuildCache } from './build-cache.mjs';
import { ROOT } from './paths.mjs';
import { buildSteps, sourceDirsOf } from './steps.mjs';

const fromRoot = (/** @type {string} */ file) => path.relative(ROOT, file);

/**
 * A bundle older than a source it is built from, as `{ bundle, source }`
 * (paths from the project root; no `source` when the bundle is missing),
 * or undefined when every bundle is as new as its sources. The bundle
 * step's build record vouches for the bundles when it passed on exactly the
 * sources and bundles there are now, whatever the file times say: a checkout
 * writes files anew with the same contents, and the build then has nothing
 * to write.
 */
export async function staleBundle() {
  if (committedAsTheyAre()) return undefined;
  const out = path.join(ROOT, 'generated');
  const cache = new BuildCache(out);
  await cache.load();
  if ((await cache.unchanged('bundle', buildSteps(out).bundle)) === true) return undefined;
  for (const api of APIS) {
    const bundle = path.join(out, 'openapi', `${api.name}.json`);
    if (!existsSync(bundle)) return { bundle: fromRoot(bundle) };
    const built = statSync(bundle).mtimeMs;
    const sources = sourceDirsOf(api).flatMap((dir) =>
      readdirSync(path.join(ROOT, 'openapi', dir), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(entry.parentPath, entry.name)),
    );
    const newest = sources.reduce((a, b) => (statSync(b).mtimeMs > statSync(a).mtimeMs ? b : a));
    if (statSync(newest).mtimeMs > built) return { bundle: fromRoot(bundle), source: fromRoot(newest) };
  }
  return undefined;
}

/**
 * True when neither the sources nor the bundles differ from the commit
 * checked out: the drift check holds every commit's bundles to its sources,
 * and a fresh clone's file times say only in which order git wrote them.
 */
function committedAsTheyAre() {
  try {
    const changed = execFileSync('git', ['status', '--porcelain', '--', 'openapi', 'generated/openapi'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return changed.trim() === '';
  } catch {
    return false; // not a git checkout: the file times decide
  }
}
