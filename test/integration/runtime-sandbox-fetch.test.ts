// @verification-service/contracts/sandbox/fetch from the packed tarball,
// bundled as a partner's bundler makes it (browser platform, nothing
// external), runs test/runtimes/sandbox-fetch-scenario.js where no Node
// module is: workerd (no nodejs_compat) and headless Chromium. The sandbox
// guide's Worker recipe, bundled as written, serves in workerd and refuses
// another Host.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { rawRequest } from '../helpers/raw-http.js';
import { linkSharedInstall } from '../helpers/packed-package.js';
import { answerOfWorkerd, resultsInChromium, serveWorkerd } from '../helpers/runtimes-harness.js';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'vc-sandbox-fetch-'));
const project = path.join(work, 'partner-tests');
let metafile: Metafile;

const ENTRIES = {
  // A Worker answering GET / with the summary.
  worker:
    'export default { async fetch() { return Response.json(await runSandboxFetchScenario(createSandboxFetch).catch((e) => ({ error: String(e?.stack ?? e) }))); } };',
  // A page module putting it in window.results.
  browser:
    'window.results = await runSandboxFetchScenario(createSandboxFetch).catch((e) => ({ error: String(e?.stack ?? e) }));',
};

// The guide's Worker, as a partner copies it.
const guide = readFileSync(path.join(ROOT, 'guides', 'sandbox.md'), 'utf8');
const WORKER_RECIPE = /```js\n(\/\/ worker\.js\n[\s\S]*?)```/.exec(guide)?.[1] ?? '';
const RECIPE_HOST = /const HOST = '([^']+)'/.exec(WORKER_RECIPE)?.[1] ?? '';

beforeAll(async () => {
  await linkSharedInstall(project);
  copyFileSync(
    path.join(ROOT, 'test', 'runtimes', 'sandbox-fetch-scenario.js'),
    path.join(project, 'sandbox-fetch-scenario.js'),
  );
  for (const [name, tail] of Object.entries(ENTRIES)) {
    const head =
      "import { createSandboxFetch } from '@verification-service/contracts/sandbox/fetch';\nimport { runSandboxFetchScenario } from './sandbox-fetch-scenario.js';";
    writeFileSync(path.join(project, `${name}.js`), `${head}\n${tail}\n`);
  }
  writeFileSync(path.join(project, 'recipe.js'), WORKER_RECIPE);
  // Both entries in one build, as a partner's bundler sees the package: the browser platform, nothing marked external.
  const result = await build({
    entryPoints: [...Object.keys(ENTRIES), 'recipe'].map((name) => path.join(project, `${name}.js`)),
    absWorkingDir: project,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outdir: path.join(project, 'dist'),
    metafile: true,
    logLevel: 'silent',
  });
  metafile = result.metafile;
}, HANG_CEILING_MS);

afterAll(() => rmSync(work, { recursive: true, force: true }));

const EXPECTED = {
  created: { status: 201, verificationStatus: 'created' },
  page: { status: 200, contentType: 'text/html; charset=utf-8', hasForm: true, after: 'started' },
  form: { status: 303, toRedirectUrl: true },
  readBack: { status: 200, verificationStatus: 'completed' },
  v2: { status: 200, hasItems: true },
  webhooks: {
    arrived: true,
    eventTypes: ['user.created', 'verification.created', 'verification.updated'],
    verificationStatuses: ['completed', 'created', 'started'],
    toWebhookUrl: true,
    signaturesValid: true,
  },
};

const RUNTIMES: Record<string, () => Promise<unknown>> = {
  'workerd (no nodejs_compat)': () => answerOfWorkerd(project, 'dist/worker.js'),
  'headless Chromium': () =>
    resultsInChromium(project, '<!doctype html><script type="module" src="/dist/browser.js"></script>'),
};

describe('the installed @verification-service/contracts/sandbox/fetch, bundled for the browser', () => {
  it('bundles from the package with no Node built-in and nothing left to import', () => {
    const inputs = Object.keys(metafile.inputs);
    // The installed package's file (through the shared install's node_modules), not the repository's.
    expect(
      inputs.filter((i) =>
        i.endsWith('node_modules/@verification-service/contracts/generated/lib/src/sandbox/fetch.js'),
      ),
    ).toHaveLength(1);
    expect(inputs.filter((i) => i.startsWith('node:'))).toEqual([]);
    for (const [file, output] of Object.entries(metafile.outputs)) expect(output.imports, file).toEqual([]);
  });

  // One workerd process and one Chromium launch, side by side.
  it.concurrent.for(Object.keys(RUNTIMES))(
    'runs a verification from create to the completed webhook in %s',
    { timeout: 60_000 },
    async (runtime, { expect }) => {
      expect(await RUNTIMES[runtime](), runtime).toEqual(EXPECTED);
    },
  );
});

/** GET `path` from 127.0.0.1:`port` under the Host `host` (fetch sets Host itself). */
const getAs = (port: number, host: string, path: string) => rawRequest(port, [`GET ${path} HTTP/1.1`, `Host: ${host}`]);

describe("the sandbox guide's Worker recipe, in workerd", () => {
  it('answers its own host and refuses a rebound one with 403, credentials unread', { timeout: 60_000 }, async () => {
    expect(RECIPE_HOST).not.toBe('');
    const { port, stop, log } = await serveWorkerd(project, 'dist/recipe.js');
    try {
      const allowed = await getAs(port, RECIPE_HOST, '/_sandbox/credentials');
      expect(allowed.status, allowed.body + log()).toBe(200);
      const { accessToken } = JSON.parse(allowed.body);
      expect(accessToken).toMatch(/^v2_/);
      const rebound = await getAs(port, 'rebind.attacker.test', '/_sandbox/credentials');
      expect(rebound.status).toBe(403);
      expect(JSON.parse(rebound.body).message).toContain(
        "createSandboxFetch({ allowedHosts: ['rebind.attacker.test'] })",
      );
      expect(rebound.body).not.toContain(accessToken);
    } finally {
      stop();
    }
  });
});
