// Bundles each API's split sources into one document, as YAML and JSON:
// generated/openapi/<api>.yaml and <api>.json; and the Arazzo workflows as
// generated/workflows/<name>.arazzo.json. `npm run dev` passes `only` to
// bundle just the APIs an edit touched.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { APIS, sourceOf } from './lib/apis.mjs';
import { ROOT } from './lib/paths.mjs';
import { runTool } from './lib/run.mjs';
import { runIfMain } from './lib/step.mjs';

export async function bundle(out, { only } = {}) {
  const dir = path.join(out, 'openapi');
  if (!only) await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const chosen = only ? APIS.filter((api) => only.includes(api.name)) : APIS;
  if (chosen.length) await bundleApis(chosen, dir);
  // The Arazzo workflows as JSON: the conformance runner of the package runs them.
  const workflows = path.join(ROOT, 'openapi', 'workflows');
  const workflowsOut = path.join(out, 'workflows');
  await rm(workflowsOut, { recursive: true, force: true });
  await mkdir(workflowsOut, { recursive: true });
  for (const file of (await readdir(workflows)).filter((f) => f.endsWith('.arazzo.yaml'))) {
    const doc = parse(await readFile(path.join(workflows, file), 'utf8'));
    await writeFile(path.join(workflowsOut, file.replace(/\.yaml$/, '.json')), `${JSON.stringify(doc, null, 2)}\n`);
  }
  console.log(`bundle: ${chosen.map((a) => `${a.name}.yaml/.json`).join(', ')}; workflows/*.arazzo.json`);
}

// One Redocly process bundles every API to its output: the tool's start-up
// is most of the cost. The scratch config names only roots and outputs;
// bundling applies no lint rules.
async function bundleApis(chosen, dir) {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'vc-bundle-'));
  try {
    const apis = Object.fromEntries(
      chosen.map((api) => [api.name, { root: path.join(ROOT, sourceOf(api)), output: path.join(dir, `${api.name}.yaml`) }]),
    );
    const config = path.join(scratch, 'redocly.yaml');
    await writeFile(config, stringify({ apis }));
    await runTool('redocly', ['bundle', '--config', config], { quiet: true });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  await Promise.all(
    chosen.map(async (api) => {
      const doc = parse(await readFile(path.join(dir, `${api.name}.yaml`), 'utf8'));
      await writeFile(path.join(dir, `${api.name}.json`), `${JSON.stringify(doc, null, 2)}\n`);
    }),
  );
}

runIfMain(import.meta, bundle);
