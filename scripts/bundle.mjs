// Bundles each API's split sources into generated/openapi/<api>.yaml and
// .json, and the Arazzo workflows into generated/workflows/*.arazzo.json.
// Each replaces its old file in a rename, so the mocks watching them reload
// and a failed bundle leaves them as they were.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { APIS, sourceOf } from './lib/apis.mjs';
import { packageVersion, withVersion } from './lib/package-version.mjs';
import { ROOT } from './lib/paths.mjs';
import { removeAllBut, replaceFile } from './lib/replace-file.mjs';
import { runTool } from './lib/run.mjs';
import { runIfMain } from './lib/step.mjs';

export async function bundle(out, { only, log = console.log } = {}) {
  const dir = path.join(out, 'openapi');
  const chosen = only ? APIS.filter((api) => only.includes(api.name)) : APIS;
  if (chosen.length) await bundleApis(chosen, dir);
  // A full bundle knows every file the folder should hold.
  const files = APIS.flatMap((api) => [`${api.name}.yaml`, `${api.name}.json`]);
  if (!only) await removeAllBut(dir, files);
  // The Arazzo workflows as JSON: the conformance runner of the package runs them.
  const workflows = path.join(ROOT, 'openapi', 'workflows');
  const workflowsOut = path.join(out, 'workflows');
  const written = [];
  for (const file of (await readdir(workflows)).filter((f) => f.endsWith('.arazzo.yaml'))) {
    const doc = parse(await readFile(path.join(workflows, file), 'utf8'));
    const name = file.replace(/\.yaml$/, '.json');
    await replaceFile(path.join(workflowsOut, name), `${JSON.stringify(doc, null, 2)}\n`);
    written.push(name);
  }
  await removeAllBut(workflowsOut, written);
  log(`bundle: ${chosen.map((a) => `${a.name}.yaml/.json`).join(', ')}; workflows/*.arazzo.json`);
}

// One Redocly process bundles every API to its output: the tool's start-up
// is most of the cost. The scratch config names only roots and outputs;
// bundling applies no lint rules. Every bundle is read back before any
// replaces its old file: a failed run replaces none.
async function bundleApis(chosen, dir) {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'vc-bundle-'));
  let texts;
  try {
    const apis = Object.fromEntries(
      chosen.map((api) => [
        api.name,
        { root: path.join(ROOT, sourceOf(api)), output: path.join(scratch, `${api.name}.yaml`) },
      ]),
    );
    const config = path.join(scratch, 'redocly.yaml');
    await writeFile(config, stringify({ apis }));
    await runTool('redocly', ['bundle', '--config', config], { quiet: true });
    const version = await packageVersion();
    texts = await Promise.all(
      chosen.map(async (api) => withVersion(await readFile(path.join(scratch, `${api.name}.yaml`), 'utf8'), version)),
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  await Promise.all(
    chosen.map(async (api, i) => {
      await replaceFile(path.join(dir, `${api.name}.yaml`), texts[i]);
      await replaceFile(path.join(dir, `${api.name}.json`), `${JSON.stringify(parse(texts[i]), null, 2)}\n`);
    }),
  );
}

runIfMain(import.meta, bundle);
