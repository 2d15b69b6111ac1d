// Generates the code samples of every operation (curl, and TypeScript with
// the package's clients) from the bundled documents' examples:
// generated/samples/<api>.json, which the docs render beside each operation
// (the bundles themselves stay as the sources say, S18).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { APIS } from './lib/apis.mjs';
import { codeSamples } from './lib/code-samples.mjs';
import { removeAllBut, replaceFile } from './lib/replace-file.mjs';
import { runIfMain } from './lib/step.mjs';

export async function samples(out) {
  const dir = path.join(out, 'samples');
  const counts = await Promise.all(
    APIS.map(async (api) => {
      const doc = JSON.parse(await readFile(path.join(out, 'openapi', `${api.name}.json`), 'utf8'));
      const operations = codeSamples(api.name, doc);
      await replaceFile(path.join(dir, `${api.name}.json`), `${JSON.stringify(operations, null, 2)}\n`);
      return `${api.name}.json (${operations.length} operations)`;
    }),
  );
  const files = APIS.map((api) => `${api.name}.json`);
  await removeAllBut(dir, files);
  console.log(`samples: ${counts.join(', ')}`);
}

runIfMain(import.meta, samples);
