// The package's one runtime dependency is openapi-fetch: modules of
// generated/lib that use other packages (the sandbox's Ajv, the
// webhooks' portable HMAC) are bundled with esbuild in place, with those
// packages inlined, so `npm install @verification-service/contracts` installs nothing
// else (decision P-row "one runtime dependency").
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { ROOT } from './paths.mjs';

// Node's builtins are loaded by the CommonJS packages inlined in the sandbox.
const REQUIRE_SHIM =
  "import { createRequire as __vcCreateRequire } from 'node:module';\nconst require = __vcCreateRequire(import.meta.url);";

/**
 * Bundles `entries` (files of generated/lib) over themselves for `platform`,
 * shared code in chunks under src/chunks/ (one copy of Ajv). The other
 * modules under `ownDirs`, reached only through the entries, are removed.
 */
export async function bundleInPlace(lib, { entries, platform, ownDirs = [], keep = [] }) {
  const files = entries.map((entry) => path.join(lib, entry));
  // esbuild treats the files as ES modules (which changes how it imports
  // CommonJS) only under a package.json saying so: a scratch folder outside
  // the repository (the drift check) has none.
  const marker = path.join(lib, 'package.json');
  const marked = !existsSync(marker);
  if (marked) await writeFile(marker, '{ "type": "module" }\n');
  const result = await build({
    entryPoints: files,
    bundle: true,
    splitting: files.length > 1,
    outdir: lib,
    outbase: lib,
    // Paths (and so chunk hashes) relative to generated/lib, wherever it is written.
    absWorkingDir: lib,
    chunkNames: 'src/chunks/[name]-[hash]',
    format: 'esm',
    platform,
    target: platform === 'node' ? 'node20' : 'es2022',
    // Smaller, and naming no input path wherever it is built.
    minify: true,
    // The packages are the repository's, wherever generated/lib is written.
    nodePaths: [path.join(ROOT, 'node_modules')],
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
    banner: platform === 'node' ? { js: REQUIRE_SHIM } : undefined,
  }).finally(() => (marked ? rm(marker) : undefined));
  // `keep`: entries of another bundling, which remain with their declarations.
  for (const dir of ownDirs)
    await removeUnlessKept(path.join(lib, dir), [...files, ...keep.map((entry) => path.join(lib, entry))]);
  for (const file of result.outputFiles) {
    await mkdir(path.dirname(file.path), { recursive: true });
    await writeFile(file.path, file.contents);
  }
}

/** Removes every file under `dir` (folders too) but the entries and their declarations. */
async function removeUnlessKept(dir, files) {
  for (const name of await readdir(dir)) {
    const full = path.join(dir, name);
    if (files.some((f) => f.startsWith(full + path.sep))) {
      await removeUnlessKept(full, files);
      continue;
    }
    const keep = files.some((f) => f === full || f.replace(/\.js$/, '.d.ts') === full);
    if (!keep) await rm(full, { recursive: true });
  }
}

const IMPORT = /(?:^|[;\s])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/**
 * Fails when a module of generated/lib imports a package outside `allowed`,
 * or a file of the package that is not there.
 */
export async function assertOnlyDependencies(lib, allowed) {
  const bad = [];
  for (const entry of await readdir(lib, { recursive: true })) {
    if (!entry.endsWith('.js')) continue;
    const text = await readFile(path.join(lib, entry), 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      if (spec.startsWith('.')) {
        if (!existsSync(path.join(lib, path.dirname(entry), spec)))
          bad.push(`${entry} imports ${spec}, which is not in generated/lib`);
        continue;
      }
      if (spec.startsWith('node:')) continue;
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      if (!allowed.includes(pkg)) bad.push(`${entry} imports ${spec}`);
    }
  }
  if (bad.length) {
    throw new Error(
      `generated/lib imports packages that are not runtime dependencies (${allowed.join(', ')}); bundle them in scripts/compile.mjs or add them to "dependencies":\n  ${bad.join('\n  ')}`,
    );
  }
}
