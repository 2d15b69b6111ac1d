// Spectral (spectral:oas + OWASP API Security ruleset, see .spectral.yaml) on
// the bundled documents: Spectral misreads multi-file OpenAPI 3.1 sources.
// Fails on any error or warning.
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { APIS } from './lib/apis.mjs';
import { ROOT } from './lib/paths.mjs';
import { runTool } from './lib/run.mjs';
import { runIfMain } from './lib/step.mjs';

/** Lints the bundles of `apis` (every API when not given) in `out`. */
export async function lintBundles(out, apis = APIS) {
  // The per-document overrides of .spectral.yaml match paths below the
  // repository, so bundles built elsewhere (--out) are linted from a copy here.
  const inside = !path.relative(ROOT, out).startsWith('..');
  const dir = inside ? path.join(out, 'openapi') : await copyInside(path.join(out, 'openapi'));
  const files = apis.map((api) => path.join(dir, `${api.name}.yaml`));
  try {
    await runTool('spectral', ['lint', '--ruleset', '.spectral.yaml', '--fail-severity=warn', ...files], {
      quiet: true,
    });
  } catch (err) {
    throw new Error(
      `Spectral found problems in the bundled documents; fix them in openapi/ and rebuild:\n${err.message}`,
    );
  } finally {
    if (!inside) await rm(dir, { recursive: true, force: true });
  }
  console.log(`lint-bundles: ${apis.map((a) => a.name).join(', ')} clean (spectral:oas, OWASP)`);
}

// Not under a dot-folder: Spectral's `**` does not match those.
async function copyInside(from) {
  const scratch = path.join(ROOT, 'node_modules', 'verification-contracts-lint');
  await mkdir(scratch, { recursive: true });
  const dir = await mkdtemp(path.join(scratch, 'bundles-'));
  await cp(from, dir, { recursive: true });
  return dir;
}

runIfMain(import.meta, lintBundles);
