// Redocly lint (recommended rules, see redocly.yaml) of the hand-written
// sources. Fails on any error or warning.
import { APIS } from './lib/apis.mjs';
import { runTool } from './lib/run.mjs';
import { runIfMain } from './lib/step.mjs';

export async function lintSources() {
  const failures = [];
  await Promise.all(
    APIS.map(async (api) => {
      try {
        const out = await runTool('redocly', ['lint', api.name, '--format=stylish'], { quiet: true });
        // Redocly exits 0 on warnings; the project allows none.
        if (/\d+ warnings?/.test(out)) failures.push(out);
      } catch (err) {
        failures.push(err.message);
      }
    }),
  );
  if (failures.length) {
    throw new Error(`Redocly lint found problems in openapi/; fix them in the sources:\n${failures.join('\n')}`);
  }
  console.log(`lint-sources: ${APIS.map((a) => a.name).join(', ')} clean (Redocly recommended)`);
}

runIfMain(import.meta, lintSources);
