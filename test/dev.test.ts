// `npm run dev` on a copy of the repository (a scratch folder whose
// node_modules is this one's): an edit of openapi/ shows in the served docs,
// the open page is told to reload, the mock answers from the new bundle, the
// sandbox comes back, and a lint problem is printed while the watcher goes on.
// The waits are generous: a test asserts what happens, not how fast
// (the 3-second loop is measured by hand, guides/contract.md).
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildCache } from '../scripts/lib/build-cache.mjs';
import { ROOT } from '../scripts/lib/paths.mjs';
import { freePort } from '../scripts/lib/prism.mjs';

const work = mkdtempSync(path.join(os.tmpdir(), 'vc-dev-'));
// What the build reads: the docs step also renders CHANGELOG.md.
const COPIED = ['openapi', 'scripts', 'src', 'generated', 'redocly.yaml', '.spectral.yaml', 'package.json', 'package-lock.json', 'tsconfig.json', 'CHANGELOG.md'];
const V2_SOURCE = path.join(work, 'openapi', 'v2', 'openapi.yaml');
const V2_EXAMPLE = path.join(work, 'openapi', 'v2', 'components', 'examples', 'VerificationCreated.yaml');
const LEAD = 'The version 2 interface of the identity verification service is read-only';
const SANDBOX_SOURCE = path.join(work, 'openapi', 'sandbox', 'openapi.yaml');
const SANDBOX_LEAD = 'The local sandbox serves the partner integration API';

let dev: ChildProcess;
let output = '';
let docsUrl = '';
let mockUrl = '';
const events: string[] = [];
// The copy's build record: the build cache keys it by the output folder.
const copyRecord = new BuildCache(path.join(work, 'generated')).file;

/** Waits until `check` returns something truthy; fails with what dev printed. */
async function until<T>(what: string, check: () => Promise<T> | T, timeoutMs = 240_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline || dev.exitCode !== null) throw new Error(`${what}: not seen. npm run dev printed:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const page = (name: string) => fetch(`${docsUrl}/${name}`).then((r) => r.text());
const edit = (file: string, from: string, to: string) => {
  const text = readFileSync(file, 'utf8');
  expect(text, file).toContain(from);
  writeFileSync(file, text.replace(from, to));
};

beforeAll(async () => {
  for (const entry of COPIED) cpSync(path.join(ROOT, entry), path.join(work, entry), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'), 'dir');
  // The copy starts from this checkout's build record (paths in it are
  // relative), so dev skips every step this checkout's build already ran.
  const record = new BuildCache(path.join(ROOT, 'generated')).file;
  if (existsSync(record)) copyFileSync(record, copyRecord);

  const [v2, partner] = await Promise.all([freePort(), freePort()]);
  dev = spawn(process.execPath, [path.join(work, 'scripts', 'dev.mjs'), '--port', '0', '--sandbox-port', '0'], {
    cwd: work,
    env: { ...process.env, MOCK_V2_PORT: String(v2), MOCK_PARTNER_PORT: String(partner) },
  });
  dev.stdout!.on('data', (d) => (output += d));
  dev.stderr!.on('data', (d) => (output += d));
  await until('dev watching openapi/', () => /watching openapi\//.test(output), 240_000);
  docsUrl = /docs: (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)![1];
  mockUrl = /Verification API v2 mock: (http:\S+)/.exec(output)![1];

  // The page's reload channel, as the injected script opens it.
  const stream = await fetch(`${docsUrl}/__dev/events`);
  expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
  (async () => {
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      events.push(...decoder.decode(chunk.value).split('\n').filter((l) => l.startsWith('event:')));
    }
  })().catch(() => {});
}, 600_000);

afterAll(async () => {
  if (dev && dev.exitCode === null) {
    const exited = new Promise((r) => dev.once('exit', r));
    dev.kill('SIGTERM');
    await exited;
  }
  if (process.env.DEV_TEST_LOG) console.log(output);
  rmSync(work, { recursive: true, force: true });
  rmSync(copyRecord, { force: true });
}, 60_000);

describe('npm run dev', () => {
  it('serves the docs with a reload script that the files on disk do not carry', async () => {
    const served = await page('v2.html');
    expect(served).toContain(LEAD);
    expect(served).toContain("new EventSource('/__dev/events')");
    expect(readFileSync(path.join(work, 'generated', 'docs', 'v2.html'), 'utf8')).not.toContain('__dev/events');
    expect(await page('index.html')).toContain('./v2.html');
  });

  it('shows a one-line description edit, reloads the page, and restarts the mock and the sandbox on the new bundle', async () => {
    const id = '0b7d4f52-9c1e-4a8f-b3d6-5e2a71c9f084';
    const mockExternalId = async () => {
      const res = await fetch(`${mockUrl}/v2/verifications/${id}`, { headers: { Authorization: 'Bearer dev-test' } }).catch(() => null);
      return res?.ok ? ((await res.json()) as { externalId: string }).externalId : null;
    };
    expect(await mockExternalId()).toBe('signup-58213');
    const sandboxStarts = output.match(/\[dev\] sandbox: /g)!.length;
    const reloads = events.length;

    edit(V2_SOURCE, `${LEAD}:`, `${LEAD} (edited by the dev test):`);
    edit(V2_EXAMPLE, 'externalId: signup-58213', 'externalId: signup-dev-test');
    await until('the edited description in the served v2.html', async () => (await page('v2.html')).includes(`${LEAD} (edited by the dev test):`));
    expect(readFileSync(path.join(work, 'generated', 'openapi', 'v2.yaml'), 'utf8')).toContain('(edited by the dev test)');
    await until('a reload event', () => events.length > reloads);
    expect(events.at(-1)).toBe('event: reload');
    await until('the mock answering from the new bundle', async () => (await mockExternalId()) === 'signup-dev-test');
    await until('the sandbox restarted on the new bundle', () => output.match(/\[dev\] sandbox: /g)!.length > sandboxStarts);
    const sandboxUrl = /\[dev\] sandbox: (http:\S+)/.exec(output.slice(output.lastIndexOf('[dev] sandbox: ')))![1];
    expect((await fetch(`${sandboxUrl}/v2/verifications/`)).status).toBe(401);
  }, 600_000);

  it('prints a lint problem as it happens and goes on watching', async () => {
    // In the sandbox control API, which has no mock to restart. An unused
    // component: bundled and rendered fine, refused by Redocly's lint.
    const source = readFileSync(SANDBOX_SOURCE, 'utf8');
    expect(source).toContain(SANDBOX_LEAD);
    expect(source).not.toMatch(/^components:/m);
    const unused = 'components:\n  schemas:\n    UnusedByDevTest:\n      type: object\n';
    writeFileSync(SANDBOX_SOURCE, `${source.replace(SANDBOX_LEAD, `${SANDBOX_LEAD} (edited once)`).trimEnd()}\n${unused}`);
    await until('the edit in the served sandbox.html', async () => (await page('sandbox.html')).includes(`${SANDBOX_LEAD} (edited once)`));
    await until('the lint problem printed', () => /problem in lint-sources[\s\S]*no-unused-components/.test(output));
    expect(dev.exitCode).toBe(null);

    writeFileSync(SANDBOX_SOURCE, source.replace(SANDBOX_LEAD, `${SANDBOX_LEAD} (edited twice)`));
    await until('the next edit in the served page', async () => (await page('sandbox.html')).includes(`${SANDBOX_LEAD} (edited twice)`));
  }, 600_000);
});
