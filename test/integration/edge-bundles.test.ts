// Workers on the installed package, bundled as wrangler bundles them, stay
// within their budgets (2 KB to verify, 30 KB to parse) and still work; the
// `sideEffects` declaration that lets bundlers drop the rest is true.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';
import { documentedWebhookExamples } from '../../src/webhooks/examples.js';
import { signWebhookPayload } from '../../src/webhooks/signature.js';
import { bundleReceiver, RECEIVERS } from '../../scripts/lib/bench/edge-bundles.mjs';
import { exec, linkSharedInstall } from '../helpers/packed-package.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'vc-edge-'));
const project = path.join(work, 'receiver');
const bundles: Record<string, string> = {};

beforeAll(async () => {
  await linkSharedInstall(project);
  for (const [name, receiver] of Object.entries(RECEIVERS)) {
    bundles[name] = await bundleReceiver(project, receiver.source);
    writeFileSync(path.join(project, `${name}.bundle.mjs`), bundles[name]);
  }
}, HANG_CEILING_MS);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('an edge receiver bundled from the installed package', () => {
  it.each(Object.keys(RECEIVERS))('importing %s stays within its budget', (name) => {
    const { budget, parses } = RECEIVERS[name];
    const bytes = Buffer.byteLength(bundles[name]);
    console.log(`[edge] ${name}: ${bytes} bytes minified (budget ${budget})`);
    expect(bytes).toBeLessThanOrEqual(budget);
    // A receiver that only verifies carries none of the payload checks; one that parses carries them all.
    for (const mark of ['VerificationEventData', 'must match exactly one schema']) {
      if (parses) expect(bundles[name]).toContain(mark);
      else expect(bundles[name]).not.toContain(mark);
    }
  });

  it.each(Object.keys(RECEIVERS))(
    'the bundle of %s answers 200 to a signed webhook and refuses a forged one',
    async (name) => {
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
