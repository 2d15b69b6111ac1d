// Bundles each API's split sources into one document, as YAML and JSON:
// generated/openapi/<api>.yaml and <api>.json.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { APIS } from './lib/apis.mjs';
import { runTool } from './lib/run.mjs';
import { runIfMain } from './lib/step.mjs';

export async function bundle(out) {
  const dir = path.join(out, 'openapi');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await Promise.all(
    APIS.map(async (api) => {
      const yamlFile = path.join(dir, `${api.name}.yaml`);
      await runTool('redocly', ['bundle', api.name, '-o', yamlFile], { quiet: true });
      const doc = parse(await readFile(yamlFile, 'utf8'));
      await writeFile(path.join(dir, `${api.name}.json`), `${JSON.stringify(doc, null, 2)}\n`);
    }),
  );
  console.log(`bundle: ${APIS.map((a) => `${a.name}.yaml/.json`).join(', ')}`);
}

runIfMain(import.meta, bundle);
