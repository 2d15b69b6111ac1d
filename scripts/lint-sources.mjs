// Redocly lint (recommended rules, see redocly.yaml) of the hand-written
// sources. Fails on any error or warning.
import { APIS } from './lib/apis.mjs';
import { runTool } from './lib/run.mjs';
import { runIfMain } from './lib/step.mjs';

export async function lintSources() {
  // One process for every API linted: Redocly's start-up is most of the cost.
  const args = ['lint', ...APIS.map((a) => a.name), '--format=stylish'];
  const problems = await runTool('redocly', args, { quiet: true }).then(
    // Redocly exits 0 on warnings; the project allows none.
    (out) => (/\d+ warnings?/.test(out) ? out : ''),
    (err) => err.message,
  );
  if (problems) throw new Error(`Redocly lint found problems in openapi/; fix them in the sources:\n${problems}`);
  console.log(`lint-sources: ${APIS.map((a) => a.name).join(', ')} clean (Redocly recommended)`);
}

runIfMain(import.meta, lintSources);
