// Spectral (spectral:oas + OWASP API Security ruleset, see .spectral.yaml) on
// the bundled documents: Spectral misreads multi-file OpenAPI 3.1 sources.
// Fails on any error or warning.
import path from 'node:path';
import { APIS } from './lib/apis.mjs';
import { runTool } from './lib/run.mjs';
import { runIfMain } from './lib/step.mjs';

export async function lintBundles(out) {
  const files = APIS.map((api) => path.join(out, 'openapi', `${api.name}.yaml`));
  try {
    await runTool('spectral', ['lint', '--ruleset', '.spectral.yaml', '--fail-severity=warn', ...files], {
      quiet: true,
    });
  } catch (err) {
    throw new Error(
      `Spectral found problems in the bundled documents; fix them in openapi/ and rebuild:\n${err.message}`,
    );
  }
  console.log(`lint-bundles: ${APIS.map((a) => a.name).join(', ')} clean (spectral:oas, OWASP)`);
}

runIfMain(import.meta, lintBundles);
