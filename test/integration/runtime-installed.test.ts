// The packed tarball where partners' code runs, one table of runtimes:
// `webhooks` runs the same cases on Node, Bun, Deno, workerd and Chromium, and
// where no Node module is, `sandbox/fetch`, bundled as a partner's bundler makes
// it, runs a verification. Also the sandbox guide's Worker recipe in workerd,
// and the edge receivers' byte budgets and the `sideEffects` declaration.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleReceiver, RECEIVERS } from '../../scripts/lib/bench/edge-bundles.mjs';
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
const bundles: Record<string, string> = {};
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

/** The webhook cases, their data inlined, told whether the runtime has node:crypto (Node, Bun and Deno do). */
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
  'webhooks.js': "export * from '@verification-service/contracts/webhooks';",
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
  // browser platform, the Worker conditions, nothing external, so that a Node
  // built-in anywhere, imported or loaded later, fails it.
  ({ metafile } = await build({
    entryPoints: ['worker', 'sandbox-fetch', 'recipe', 'webhooks'].map((name) => path.join(project, `${name}.js`)),
    absWorkingDir: project,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    outdir: path.join(project, 'dist'),
    metafile: true,
    logLevel: 'silent',
  }));
  for (const [name, receiver] of Object.entries(RECEIVERS)) {
    bundles[name] = await bundleReceiver(project, receiver.source);
    writeFileSync(path.join(project, `${name}.bundle.mjs`), bundles[name]);
  }
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

  // A node: module, imported or loaded later, fails the build above.
  it("webhooks bundles from the package's own files alone, with no Buffer", () => {
    const inputs = Object.keys(metafile.outputs['dist/webhooks.js'].inputs);
    expect(inputs.filter((i) => !i.includes('@verification-service/contracts/generated/lib/'))).toEqual([
      'webhooks.js',
    ]);
    expect(inputs.length).toBeGreaterThan(3);
    expect(readFileSync(path.join(project, 'dist', 'webhooks.js'), 'utf8')).not.toMatch(/(?<![\w$.])Buffer\b/);
  });

  it("sandbox/fetch bundles from the installed package's own files, not the repository's", () => {
    const inputs = Object.keys(metafile.outputs['dist/sandbox-fetch.js'].inputs);
    const own = '@verification-service/contracts/generated/lib/';
    expect(inputs.filter((i) => !i.includes(own)).sort()).toEqual(['sandbox-fetch-scenario.js', 'sandbox-fetch.js']);
    expect(inputs.some((i) => i.endsWith(`${own}src/sandbox/fetch.js`))).toBe(true);
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

describe('an edge receiver bundled from the installed package', () => {
  it.each(Object.keys(RECEIVERS))(
    'importing %s stays within its budget, answers 200 to a signed webhook and refuses a forged one',
    async (name) => {
      const { budget, parses } = RECEIVERS[name];
      const bytes = Buffer.byteLength(bundles[name]);
      console.log(`[edge] ${name}: ${bytes} bytes minified (budget ${budget})`);
      expect(bytes).toBeLessThanOrEqual(budget);
      // A receiver that only verifies carries none of the payload checks; one that parses carries them all.
      for (const mark of ['VerificationEventData', 'must match exactly one schema']) {
        if (parses) expect(bundles[name]).toContain(mark);
        else expect(bundles[name]).not.toContain(mark);
      }
      const { default: worker } = await import(pathToFileURL(path.join(project, `${name}.bundle.mjs`)).href);
      const key = 'sbx_edge_key';
      const text = JSON.stringify(documentedWebhookExamples().get('verification.updated'));
      const sent: unknown[] = [];
      const env = { AUTH_KEY: key, QUEUE: { send: async (m: unknown) => void sent.push(m) } };
      const post = (sig: string) =>
        worker.fetch(
          new Request('https://receiver.example/', { method: 'POST', body: text, headers: { 'X-SIGNATURE': sig } }),
          env,
        );
      expect((await post(signWebhookPayload(text, key))).status).toBe(200);
      expect((await post(signWebhookPayload(text, 'sbx_forger'))).status).toBe(401);
      expect(sent.length).toBeLessThanOrEqual(1);
    },
  );

  it('a bare import of the webhooks module bundles to nothing: the declaration lets the bundler drop it', async () => {
    expect((await bundleReceiver(project, "import '@verification-service/contracts/webhooks';")).trim()).toBe('');
  });
});

describe('the sideEffects declaration', () => {
  it('is true of every module it covers: importing one adds no global, listener, handle or output', async () => {
    const pkg = JSON.parse(
      readFileSync(path.join(project, 'node_modules', '@verification-service', 'contracts', 'package.json'), 'utf8'),
    );
    expect(pkg.sideEffects).toEqual(['./generated/lib/src/cli/index.js']);
    // The one module with side effects is the command line, which runs when loaded.
    expect(Object.values(pkg.bin)).toEqual(['generated/lib/src/cli/index.js']);
    writeFileSync(
      path.join(project, 'side-effects.mjs'),
      `import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
const root = path.resolve('node_modules/@verification-service/contracts');
const declared = new Set(${JSON.stringify(pkg.sideEffects)}.map((f) => path.join(root, f)));
const files = readdirSync(path.join(root, 'generated', 'lib'), { recursive: true }).map((f) => path.join(root, 'generated', 'lib', f)).filter((f) => f.endsWith('.js') && !declared.has(f)).sort();
// Node sets parts of itself up on first use, and some of that lands on
// globalThis: reading Response or Request, or (from Node 22 on) importing
// node:http, whose module namespace reads its lazy WebSocket export, loads
// Node's own undici, which puts Symbol(undici.globalDispatcher.1) on
// globalThis. That is the runtime's state, not the module's, so it goes into
// the baseline: every global read once and every built-in module the package
// imports loaded before any module is measured, and any warning that prints
// printed before output is counted.
for (const key of Reflect.ownKeys(globalThis)) void globalThis[key];
const specifiers = files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/\\b(?:from|import|require)\\s*\\(?\\s*["']([^"']+)["']/g)].map((m) => m[1]));
for (const builtin of new Set(specifiers.filter((s) => isBuiltin(s)))) await import(builtin);
await new Promise((resolve) => setImmediate(resolve));
let output = 0;
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream);
  stream.write = (...args) => (output++, write(...args));
}
const state = () => ({
  globals: Reflect.ownKeys(globalThis).map(String),
  listeners: process.eventNames().map((n) => String(n) + ' ' + process.listenerCount(n)).join(),
  handles: process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap').join(),
  output,
});
// Node 20 reads ES modules with asynchronous file calls and closes each file
// after the import has settled (Node 22 reads them synchronously): the
// loader's own requests finish before a snapshot, within a second, so a
// request a module leaves running still shows.
const settled = async () => {
  const deadline = Date.now() + 1000;
  while (Date.now() < deadline && process.getActiveResourcesInfo().some((r) => r === 'CloseReq' || r.startsWith('FSReq'))) await new Promise((resolve) => setImmediate(resolve));
  return state();
};
const found = [];
for (const file of files) {
  const before = await settled();
  await import(pathToFileURL(file).href);
  const after = await settled();
  const changes = {
    globals: after.globals.filter((g) => !before.globals.includes(g)),
    listeners: after.listeners === before.listeners ? '' : after.listeners,
    handles: after.handles === before.handles ? '' : after.handles,
    output: after.output - before.output,
  };
  if (changes.globals.length || changes.listeners || changes.handles || changes.output) found.push({ file: path.relative(root, file), ...changes });
}
process.stdout.write(JSON.stringify({ checked: files.length, found }) + '\\n');
`,
    );
    const { stdout } = await exec(process.execPath, ['side-effects.mjs'], { cwd: project });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(result.found).toEqual([]);
    expect(result.checked).toBeGreaterThan(20);
  }, 60_000);
});
