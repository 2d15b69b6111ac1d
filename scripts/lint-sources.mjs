// Redocly lint (recommended rules, see redocly.yaml) of the hand-written
// sources. Fails on any error or warning.
import { APIS } from './lib/apis.mjs';
import { runTool } from './lib/run.mjs';
import { runIfMain } from './lib/step.mjs';

export async function lintSources() {
  // One process for every API linted: Redocly's start-up is most of the cost.
  let problems = '';
  try {
    const out = await runTool('redocly', ['lint', ...APIS.map((a) => a.name), '--format=stylish'], { quiet: true });
    // Redocly exits 0 on warnings; the project allows none.
    if (/\d+ warnings?/.test(out)) problems = out;
  } catch (err) {
    problems = err.message;
  }
  if (problems) throw new Error(`Redocly lint found problems in openapi/; fix them in the sources:\n${problems}`);
  console.log(`lint-sources: ${APIS.map((a) => a.name).join(', ')} clean (Redocly recommended)`);
}

runIfMain(import.meta, lintSources);
