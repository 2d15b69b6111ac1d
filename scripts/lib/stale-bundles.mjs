// @ts-check
// Whether the working tree's bundles (generated/openapi/<api>.json) were
// built from the sources as they are now. `npm run diff` judges those
// bundles; after a build that failed they are the last good build's, and a
// change to the sources would be judged by documents that do not hold it.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { APIS } from './apis.mjs';
import { readSources, sourcesOf } from './dev-sources.mjs';
import { GENERATED, ROOT } from './paths.mjs';

const fromRoot = (/** @type {string} */ file) => path.relative(ROOT, file);

/**
 * A bundle older than a source it is built from, as `{ bundle, source }`
 * (paths from the project root; no `source` when the bundle is missing),
 * or undefined when every bundle is as new as its sources (every build
 * writes the bundles anew).
 */
export async function staleBundle() {
  if (committedAsTheyAre()) return undefined;
  const texts = await readSources();
  for (const api of APIS) {
    const bundle = path.join(GENERATED, 'openapi', `${api.name}.json`);
    if (!existsSync(bundle)) return { bundle: fromRoot(bundle) };
    const built = statSync(bundle).mtimeMs;
    const sources = [...sourcesOf(api, texts)].filter((file) => texts.has(file));
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
