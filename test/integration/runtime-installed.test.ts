// The packed tarball's entry points where partners' code runs, one table of
// runtimes: `webhooks` runs the same cases (test/runtimes/webhook-cases.js)
// unchanged on Node, Bun, Deno, workerd (no nodejs_compat) and headless
// Chromium, told whether its runtime has node:crypto (without it the
// synchronous verifier must refuse, naming the asynchronous one); where no
// Node module is (workerd, Chromium), `sandbox/fetch`, bundled as a partner's
// bundler makes it (browser platform, nothing external), also runs a
// verification from create to its webhooks (test/runtimes/sandbox-fetch-scenario.js).
// The sandbox guide's Worker recipe, bundled as written, serves in workerd
// and refuses another Host.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { documentedWebhookExamples } from '../../src/webhooks/examples.js';
import { signWebhookPayload } from '../../src/webhooks/signature.js';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';
import { exec, linkSharedInstall } from '../helpers/packed-package.js';
import { rawRequest } from '../helpers/raw-http.js';
import { answerOfWorkerd, resultsInChromium, serveWorkerd } from '../helpers/runtimes-harness.js';
import { TESTED_RUNTIMES } from '../runtimes/runtimes.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'vc-runtimes-'));
const project = path.join(work, 'partner');
const KEY = 'sbx_4f9c2a7e1b3d48c6a0e5f7d9b2c4e6a8';
const OTHER = 'sbx_other_key';
const WEBHOOKS_ENTRY = 'node_modules/@verification-service/contracts/generated/lib/src/webhooks/index.js';
let metafile: Metafile;

/** What a runtime ran: each webhook case's result, and the sandbox/fetch scenario's summary where it ran. */
type Results = { webhooks: { name: string; pass: boolean; detail: string }[]; sandboxFetch?: unknown };

function testData() {
  const examples = [...documentedWebhookExamples().values()] as Record<string, any>[];
  const byType = new Map(examples.map((e) => [e.eventType, e]));
  const user = byType.get('user.created')!;
  const updated = byType.get('verification.updated')!;
  // Signed here: signing needs node:crypto, which workerd and Chromium lack.
  const signed = (value: object, key = KEY) => ({
    text: JSON.stringify(value),
    signature: signWebhookPayload(JSON.stringify(value), key),
  });
  const parseCases = [
    {
      name: 'an event type added after this version',
      ...signed({ ...user, eventType: 'company.created', dataType: 'company', data: { companyId: 'c-1' } }),
      expected: 'returned',
    },
    {
      name: 'a new verification status (no userId)',
      ...signed({ ...updated, data: { ...updated.data, status: 'onHold', userId: null } }),
      expected: 'returned',
    },
    { name: 'no eventId', ...signed({ ...user, eventId: undefined }), expected: 'payload' },
    {
      name: 'a user envelope carrying verification.created',
      ...signed({ ...user, eventType: 'verification.created' }),
      expected: 'payload',
    },
    { name: 'signed with another key', ...signed(user, OTHER), expected: 'signature' },
  ];
  const vectors = JSON.parse(readFileSync(path.join(ROOT, 'test', 'fixtures', 'webhook-vectors.json'), 'utf8'));
  return {
    key: KEY,
    otherKey: OTHER,
    vectors,
    examples: examples.map((e) => ({ eventType: e.eventType, eventId: e.eventId, ...signed(e) })),
    parseCases,
  };
}

/** The webhook cases with their data inlined, told whether the runtime has node:crypto (Node, Bun and Deno do). */
const webhookCases = (nodeCrypto: boolean) => `import * as wh from '@verification-service/contracts/webhooks';
import { runWebhookCases } from './webhook-cases.js';
const data = ${JSON.stringify({ ...testData(), nodeCrypto })};
const webhooks = () => runWebhookCases(wh, data);`;
const SANDBOX_FETCH = `import { createSandboxFetch } from '@verification-service/contracts/sandbox/fetch';
import { runSandboxFetchScenario } from './sandbox-fetch-scenario.js';
const sandboxFetch = () => runSandboxFetchScenario(createSandboxFetch).catch((e) => ({ error: String(e?.stack ?? e) }));`;

const ENTRIES = {
  'run.js': `${webhookCases(true)}\nconsole.log(JSON.stringify({ webhooks: await webhooks() }));`,
  // A Worker answering GET / with both.
  'worker.js': `${webhookCases(false)}\n${SANDBOX_FETCH}
export default { async fetch() { return Response.json({ webhooks: await webhooks(), sandboxFetch: await sandboxFetch() }); } };`,
  // In the page, webhooks is the installed files as they are (an import map, no
  // bundler); sandbox/fetch is bundled.
  'page.js': `${webhookCases(false)}\nimport { sandboxFetch } from './dist/sandbox-fetch.js';
window.results = { webhooks: await webhooks(), sandboxFetch: await sandboxFetch() };`,
  'sandbox-fetch.js': `${SANDBOX_FETCH}\nexport { sandboxFetch };`,
};

// The guide's Worker, as a partner copies it.
const guide = readFileSync(path.join(ROOT, 'guides', 'sandbox.md'), 'utf8');
const WORKER_RECIPE = /```js\n(\/\/ worker\.js\n[\s\S]*?)```/.exec(guide)?.[1] ?? '';
const RECIPE_HOST = /const HOST = '([^']+)'/.exec(WORKER_RECIPE)?.[1] ?? '';

beforeAll(async () => {
  await linkSharedInstall(project);
  for (const file of ['webhook-cases.js', 'sandbox-fetch-scenario.js'])
    copyFileSync(path.join(ROOT, 'test', 'runtimes', file), path.join(project, file));
  for (const [file, source] of Object.entries(ENTRIES)) writeFileSync(path.join(project, file), source);
  writeFileSync(path.join(project, 'recipe.js'), WORKER_RECIPE);
  // One build, as a partner's bundler (or wrangler) sees the package: the
  // browser platform, the Worker conditions, nothing external.
  const result = await build({
    entryPoints: ['worker', 'sandbox-fetch', 'recipe'].map((name) => path.join(project, `${name}.js`)),
    absWorkingDir: project,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    outdir: path.join(project, 'dist'),
    metafile: true,
    logLevel: 'silent',
  });
  metafile = result.metafile;
}, HANG_CEILING_MS);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What run.js prints when `command` runs it in the project. */
const printed = async (command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<Results> => {
  const { stdout } = await exec(command, [...args, 'run.js'], { cwd: project, env: { ...process.env, ...env } });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
};
const importMap = { imports: { '@verification-service/contracts/webhooks': `/${WEBHOOKS_ENTRY}` } };

const RUNTIMES: Record<string, () => Promise<Results>> = {
  Node: () => printed(process.execPath, []),
  Bun: () => printed(path.join(ROOT, 'node_modules', '.bin', 'bun'), []),
  Deno: () =>
    printed(path.join(ROOT, 'node_modules', '@deno', 'linux-x64-glibc', 'deno'), ['run', '--quiet', '--no-prompt'], {
      DENO_DIR: path.join(work, 'deno'),
      DENO_NO_UPDATE_CHECK: '1',
    }),
  'workerd (no nodejs_compat)': async () => (await answerOfWorkerd(project, 'dist/worker.js')) as Results,
  'headless Chromium': async () =>
    (await resultsInChromium(
      project,
      `<!doctype html><script type="importmap">${JSON.stringify(importMap)}</script><script type="module" src="/page.js"></script>`,
    )) as Results,
};
const WITHOUT_NODE = ['workerd (no nodejs_compat)', 'headless Chromium'];

const SANDBOX_FETCH_EXPECTED = {
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

describe('the installed package in every runtime', () => {
  it('covers the runtimes the README names', () => {
    expect(Object.keys(RUNTIMES)).toEqual(TESTED_RUNTIMES.map((r) => r.id));
  });

  it('webhooks loads no node: module and no Buffer', () => {
    const files = [WEBHOOKS_ENTRY];
    const seen = new Set<string>();
    while (files.length) {
      const file = files.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      // Comments may name what the code avoids.
      const text = readFileSync(path.join(project, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const m of text.matchAll(/(?:from\s*|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
        expect(m[1], `${file} imports ${m[1]}`).toMatch(/^\.\.?\//);
        files.push(path.join(path.dirname(file), m[1]));
      }
      expect(text, `${file} uses Buffer`).not.toMatch(/(?<![\w$.])Buffer\b/);
    }
    expect(seen.size).toBeGreaterThan(3);
  });

  it('sandbox/fetch bundles from the package with no Node built-in and nothing left to import', () => {
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

  // The runtimes are independent processes: they run side by side.
  let expectedCount = 0;
  it.concurrent.for(Object.keys(RUNTIMES))(
    'passes every webhook case in %s, and runs a verification from create to the completed webhook where Node is not',
    { timeout: HANG_CEILING_MS },
    async (runtime, { expect }) => {
      const { webhooks, sandboxFetch } = await RUNTIMES[runtime]();
      const failed = webhooks.filter((r) => !r.pass).map((r) => `${r.name}: ${r.detail}`);
      expect(failed, runtime).toEqual([]);
      expectedCount ||= webhooks.length;
      // The same cases everywhere, and enough of them to mean something.
      expect(webhooks.length).toBe(expectedCount);
      expect(webhooks.length).toBeGreaterThan(50);
      expect(sandboxFetch, runtime).toEqual(WITHOUT_NODE.includes(runtime) ? SANDBOX_FETCH_EXPECTED : undefined);
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
