// @verification-service/contracts/webhooks from the packed tarball runs the
// same cases (test/runtimes/webhook-cases.js) unchanged on Node, Bun, Deno,
// workerd (no nodejs_compat) and headless Chromium, told whether its runtime
// has node:crypto (without it the synchronous verifier must refuse, naming
// the asynchronous one).
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { documentedWebhookExamples } from '../../src/webhooks/examples.js';
import { signWebhookPayload } from '../../src/webhooks/signature.js';
import { exec, linkSharedInstall } from '../helpers/packed-package.js';
import { answerOfWorkerd, resultsInChromium } from '../helpers/runtimes-harness.js';
import { TESTED_RUNTIMES } from '../runtimes/runtimes.js';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'vc-runtimes-'));
const project = path.join(work, 'receiver');
const KEY = 'sbx_4f9c2a7e1b3d48c6a0e5f7d9b2c4e6a8';
const OTHER = 'sbx_other_key';
const WEBHOOKS_ENTRY = 'node_modules/@verification-service/contracts/generated/lib/src/webhooks/index.js';

interface CaseResult {
  name: string;
  pass: boolean;
  detail: string;
}

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

/** The cases' entry module for a runtime: the installed package, the shared cases, the data inlined, and whether the runtime has node:crypto. */
function entry(tail: string, nodeCrypto: boolean): string {
  return [
    "import * as wh from '@verification-service/contracts/webhooks';",
    "import { runWebhookCases } from './webhook-cases.js';",
    `const data = ${JSON.stringify({ ...testData(), nodeCrypto })};`,
    tail,
  ].join('\n');
}

const parseResults = (stdout: string): CaseResult[] => JSON.parse(stdout.trim().split('\n').at(-1)!);

async function inWorkerd(): Promise<CaseResult[]> {
  // As wrangler deploys a Worker: bundled with esbuild under the workerd conditions.
  const worker = await build({
    entryPoints: [path.join(project, 'worker.js')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
  });
  writeFileSync(path.join(project, 'worker-bundle.js'), worker.outputFiles[0].text);
  return (await answerOfWorkerd(project, 'worker-bundle.js')) as CaseResult[];
}

async function inChromium(): Promise<CaseResult[]> {
  // The installed files as they are, loaded by the browser through an import map: no bundler.
  const importMap = { imports: { '@verification-service/contracts/webhooks': `/${WEBHOOKS_ENTRY}` } };
  return (await resultsInChromium(
    project,
    `<!doctype html><script type="importmap">${JSON.stringify(importMap)}</script><script type="module" src="/browser.js"></script>`,
  )) as CaseResult[];
}

/** The cases' results as `command` prints them from run.js in the project. */
const printed = async (command: string, args: string[], env?: NodeJS.ProcessEnv) =>
  parseResults((await exec(command, [...args, 'run.js'], { cwd: project, env: { ...process.env, ...env } })).stdout);

const RUNTIMES: Record<string, () => Promise<CaseResult[]>> = {
  Node: () => printed(process.execPath, []),
  Bun: () => printed(path.join(ROOT, 'node_modules', '.bin', 'bun'), []),
  Deno: () =>
    printed(path.join(ROOT, 'node_modules', '@deno', 'linux-x64-glibc', 'deno'), ['run', '--quiet', '--no-prompt'], {
      DENO_DIR: path.join(work, 'deno'),
      DENO_NO_UPDATE_CHECK: '1',
    }),
  'workerd (no nodejs_compat)': inWorkerd,
  'headless Chromium': inChromium,
};

beforeAll(async () => {
  await linkSharedInstall(project);
  copyFileSync(path.join(ROOT, 'test', 'runtimes', 'webhook-cases.js'), path.join(project, 'webhook-cases.js'));
  // Node, Bun and Deno have node:crypto; workerd without nodejs_compat and browsers do not.
  writeFileSync(
    path.join(project, 'run.js'),
    entry('console.log(JSON.stringify(await runWebhookCases(wh, data)));', true),
  );
  writeFileSync(
    path.join(project, 'worker.js'),
    entry('export default { async fetch() { return Response.json(await runWebhookCases(wh, data)); } };', false),
  );
  writeFileSync(path.join(project, 'browser.js'), entry('window.results = await runWebhookCases(wh, data);', false));
}, HANG_CEILING_MS);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the installed @verification-service/contracts/webhooks in every runtime', () => {
  it('loads no node: module and no Buffer', () => {
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

  it('covers the runtimes the README names', () => {
    expect(Object.keys(RUNTIMES)).toEqual(TESTED_RUNTIMES.map((r) => r.id));
  });

  // The runtimes are independent processes: they run side by side.
  let expectedCount = 0;
  it.concurrent.for(Object.keys(RUNTIMES))(
    'passes every case in %s',
    { timeout: HANG_CEILING_MS },
    async (runtime, { expect }) => {
      const results = await RUNTIMES[runtime]();
      const failed = results.filter((r) => !r.pass).map((r) => `${r.name}: ${r.detail}`);
      expect(failed, runtime).toEqual([]);
      expectedCount ||= results.length;
      // The same cases everywhere, and enough of them to mean something.
      expect(results.length).toBe(expectedCount);
      expect(results.length).toBeGreaterThan(50);
    },
  );
});
