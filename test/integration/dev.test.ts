// `npm run dev` on a copy of the repository (a scratch folder whose
// node_modules is this one's), started through npm with every port 0: an
// edit of openapi/ shows in the served docs, the open page is told to reload,
// the mock answers from the new bundle, the sandbox comes back, saves made by
// renaming a new file over the old are each seen, a lint problem is printed
// while the watcher goes on, `npm run build` hands its build to dev (which
// then serves what it wrote), a change under src/ reaches the sandbox, a
// failed compile leaves generated/lib as it was, and SIGTERM to npm ends
// every process dev started.
// The waits are generous: a test asserts what happens, not how fast (the
// 3-second loop is a figure of `npm run bench -- --only dev`).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepts } from '../../scripts/lib/prism.mjs';
import { copyProject } from '../../scripts/lib/project-copy.mjs';
import { snapshot } from '../helpers/folder-snapshot.js';

let copy: ReturnType<typeof copyProject> | undefined;
/** A path in the copy. */
const inCopy = (...parts: string[]) => path.join(copy!.dir, ...parts);
const V2_SOURCE = ['openapi', 'v2', 'openapi.yaml'];
const V2_EXAMPLE = ['openapi', 'v2', 'components', 'examples', 'VerificationCreated.yaml'];
const LEAD = 'The version 2 interface of the identity verification service is read-only';
const SANDBOX_SOURCE = ['openapi', 'sandbox', 'openapi.yaml'];
const SANDBOX_LEAD = 'The local sandbox serves the partner integration API';
const VERIFICATIONS = ['openapi', 'partner', 'paths', 'verifications.yaml'];
const CREATED = 'The created verification, in status `created` and without `updatedAt`.';

let dev: ChildProcess;
let output = '';
const urls = { docs: '', sandbox: '', v2Mock: '', partnerMock: '' };
const events: string[] = [];

/** Whether npm has exited (SIGTERM ends it by that signal, with no exit code). */
const ended = () => dev.exitCode !== null || dev.signalCode !== null;

/** Waits until `check` returns something truthy; fails with what dev printed. */
async function until<T>(what: string, check: () => Promise<T> | T, timeoutMs = 240_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline || ended()) throw new Error(`${what}: not seen. npm run dev printed:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const page = (name: string) => fetch(`${urls.docs}/${name}`).then((r) => r.text());
const edit = (where: string[], from: string, to: string) => {
  const file = inCopy(...where);
  const text = readFileSync(file, 'utf8');
  expect(text, file).toContain(from);
  writeFileSync(file, text.replace(from, to));
};
/** Saves as vim, JetBrains' safe write and `sed -i` do: a new file in the same folder, renamed over the old. */
const saveByRename = (where: string[], text: string) => {
  const file = inCopy(...where);
  const scratch = `${file}.dev-test-save`;
  writeFileSync(scratch, text);
  renameSync(scratch, file);
};
const lastDevLine = () => output.match(/^\[dev\] .*$/gm)?.at(-1) ?? '';
/** The background steps of the last save are done (their last line is "rebuilt in"), or the last build handed over. */
const settled = () =>
  until('the background steps finished', () => /^\[dev\] (rebuilt in|ran a build handed over)/.test(lastDevLine()));
const count = (pattern: RegExp) => output.match(pattern)?.length ?? 0;
const sandboxStarts = () => count(/\[dev\] sandbox: /g);
/** The externalId the v2 mock answers for the example verification; null while it does not answer. */
const mockExternalId = async () => {
  const res = await fetch(`${urls.v2Mock}/v2/verifications/0b7d4f52-9c1e-4a8f-b3d6-5e2a71c9f084`, {
    headers: { Authorization: 'Bearer dev-test' },
  }).catch(() => null);
  return res?.ok ? ((await res.json()) as { externalId: string }).externalId : null;
};
const sandboxHome = () =>
  fetch(`${urls.sandbox}/`).then(
    (r) => (r.ok ? r.text() : ''),
    () => '',
  );

/** A process and all its descendants, with their command lines (Linux /proc). */
function processTree(pid: number): { pid: number; cmd: string }[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    const tasks = existsSync(`/proc/${all[i]}/task`) ? readdirSync(`/proc/${all[i]}/task`) : [];
    for (const tid of tasks) {
      const children = readFileSync(`/proc/${all[i]}/task/${tid}/children`, 'utf8').split(/\s+/).filter(Boolean);
      all.push(...children.map(Number));
    }
  }
  return all.map((p) => ({ pid: p, cmd: readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ') }));
}
/** Whether a process runs with this command line (not gone, not a zombie waiting to be reaped, not a new one on the same pid). */
function running({ pid, cmd }: { pid: number; cmd: string }) {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ')[0];
    return state !== 'Z' && readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ') === cmd;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  copy = copyProject('vc-dev-');
  // Each port 0, two through options and two through the environment.
  dev = spawn('npm', ['run', 'dev', '--', '--port', '0', '--mock-v2-port', '0'], {
    cwd: copy.dir,
    env: { ...process.env, SANDBOX_PORT: '0', MOCK_PARTNER_PORT: '0', NO_UPDATE_NOTIFIER: '1' },
  });
  dev.stdout!.on('data', (d) => (output += d));
  dev.stderr!.on('data', (d) => (output += d));
  await until('dev watching openapi/', () => /watching openapi\//.test(output), 240_000);
  urls.docs = /docs: (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)![1];
  urls.sandbox = /\[dev\] sandbox: (http:\S+)/.exec(output)![1];
  urls.v2Mock = /Verification API v2 mock: (http:\S+)/.exec(output)![1];
  urls.partnerMock = /Partner Integration API mock: (http:\S+)/.exec(output)![1];

  // The page's reload channel, as the injected script opens it.
  const stream = await fetch(`${urls.docs}/__dev/events`);
  expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
  (async () => {
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      events.push(
        ...decoder
          .decode(chunk.value)
          .split('\n')
          .filter((l) => l.startsWith('event:')),
      );
    }
  })().catch(() => {});
}, 600_000);

afterAll(async () => {
  // npm ends at once; dev (its grandchild) and what it started end after it.
  if (dev && !ended()) {
    const started = processTree(dev.pid!).slice(1);
    dev.kill('SIGTERM');
    const deadline = Date.now() + 30_000;
    while (started.some(running) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  }
  if (process.env.DEV_TEST_LOG) console.log(output);
  copy?.remove();
}, 60_000);

describe('npm run dev', () => {
  it('listens on a port of its own choosing for each server asked for port 0, and prints the address it got', async () => {
    const ports = Object.values(urls).map((url) => Number(new URL(url).port));
    expect(ports.every((port) => port > 0)).toBe(true);
    expect(new Set(ports).size).toBe(4);
    for (const port of ports) expect(await accepts(port)).toBe(true);
    expect((await fetch(`${urls.partnerMock}/verifications`, { headers: { 'X-Auth-Key': 'dev-test' } })).status).toBe(
      200,
    );
  });

  it('serves the docs with a reload script that the files on disk do not carry', async () => {
    const served = await page('v2.html');
    expect(served).toContain(LEAD);
    expect(served).toContain("new EventSource('/__dev/events')");
    expect(readFileSync(inCopy('generated', 'docs', 'v2.html'), 'utf8')).not.toContain('__dev/events');
    expect(await page('index.html')).toContain('./v2.html');
  });

  it('shows a one-line description edit, reloads the page, the mock reloads and the sandbox restarts on the new bundle', async () => {
    expect(await mockExternalId()).toBe('signup-58213');
    const starts = sandboxStarts();
    const reloads = events.length;

    edit(V2_SOURCE, `${LEAD}:`, `${LEAD} (edited by the dev test):`);
    edit(V2_EXAMPLE, 'externalId: signup-58213', 'externalId: signup-dev-test');
    await until('the edited description in the served v2.html', async () =>
      (await page('v2.html')).includes(`${LEAD} (edited by the dev test):`),
    );
    expect(readFileSync(inCopy('generated', 'openapi', 'v2.yaml'), 'utf8')).toContain('(edited by the dev test)');
    await until('a reload event', () => events.length > reloads);
    expect(events.at(-1)).toBe('event: reload');
    await until('the mock answering from the new bundle', async () => (await mockExternalId()) === 'signup-dev-test');
    await until('the sandbox restarted on the new bundle', () => sandboxStarts() > starts);
    const sandboxUrl = /\[dev\] sandbox: (http:\S+)/.exec(output.slice(output.lastIndexOf('[dev] sandbox: ')))![1];
    expect(sandboxUrl).toBe(urls.sandbox);
    expect((await fetch(`${sandboxUrl}/v2/verifications/`)).status).toBe(401);
  }, 600_000);

  it('shows each of several saves of one file made by renaming a new file over it, as editors save', async () => {
    const original = readFileSync(inCopy(...VERIFICATIONS), 'utf8');
    expect(original).toContain(CREATED);
    for (const save of [1, 2, 3]) {
      const marker = `(saved by rename ${save})`;
      saveByRename(VERIFICATIONS, original.replace(CREATED, `${CREATED} ${marker}`));
      await until(`rename save ${save} in the served partner.html`, async () =>
        (await page('partner.html')).includes(marker),
      );
      if (save > 1) expect(await page('partner.html')).not.toContain(`(saved by rename ${save - 1})`);
    }
  }, 600_000);

  it('prints a lint problem as it happens and goes on watching', async () => {
    // In the sandbox control API, which has no mock to restart. An unused
    // component: bundled and rendered fine, refused by Redocly's lint.
    const source = readFileSync(inCopy(...SANDBOX_SOURCE), 'utf8');
    expect(source).toContain(SANDBOX_LEAD);
    expect(source).not.toMatch(/^components:/m);
    const unused = 'components:\n  schemas:\n    UnusedByDevTest:\n      type: object\n';
    writeFileSync(
      inCopy(...SANDBOX_SOURCE),
      `${source.replace(SANDBOX_LEAD, `${SANDBOX_LEAD} (edited once)`).trimEnd()}\n${unused}`,
    );
    await until('the edit in the served sandbox.html', async () =>
      (await page('sandbox.html')).includes(`${SANDBOX_LEAD} (edited once)`),
    );
    await until('the lint problem printed', () => /problem in lint-sources[\s\S]*no-unused-components/.test(output));
    expect(ended()).toBe(false);

    writeFileSync(inCopy(...SANDBOX_SOURCE), source.replace(SANDBOX_LEAD, `${SANDBOX_LEAD} (edited twice)`));
    await until('the next edit in the served page', async () =>
      (await page('sandbox.html')).includes(`${SANDBOX_LEAD} (edited twice)`),
    );
  }, 600_000);

  it('runs npm run build for it, then serves what that build wrote: the page, the mock and a restarted sandbox', async () => {
    await settled();
    const starts = sandboxStarts();
    edit(V2_SOURCE, `${LEAD} (edited by the dev test):`, `${LEAD} (built by npm run build):`);
    edit(V2_EXAMPLE, 'externalId: signup-dev-test', 'externalId: signup-handed-build');
    const build = spawn('npm', ['run', 'build'], { cwd: copy!.dir, env: { ...process.env, NO_UPDATE_NOTIFIER: '1' } });
    let printed = '';
    build.stdout!.on('data', (d) => (printed += d));
    build.stderr!.on('data', (d) => (printed += d));
    const status = await new Promise((resolve) => build.once('exit', resolve));
    expect(status, printed).toBe(0);
    expect(printed).toMatch(
      /build: run by npm run dev \(pid \d+, docs http:\/\/127\.0\.0\.1:\d+\/\), which owns generated\/ in this checkout/,
    );
    expect(printed).toMatch(/build: .*\bbundle (\d+\.\ds|unchanged).*; total/);
    expect(printed).toMatch(/\[dev\] ran the handed build in [\d.]+s: pages reloaded; .*sandbox restarted/);
    expect(output).toMatch(/\[dev\] ran a build handed over by npm run build \(passed\)/);
    expect(readdirSync(inCopy('generated')).filter((name) => name.startsWith('.'))).toEqual([]);
    expect(await page('v2.html')).toContain(`${LEAD} (built by npm run build):`);
    await until(
      'the mock answering from the built bundle',
      async () => (await mockExternalId()) === 'signup-handed-build',
    );
    expect(sandboxStarts()).toBeGreaterThan(starts);
    expect((await fetch(`${urls.sandbox}/v2/verifications/`)).status).toBe(401);
  }, 600_000);

  it('compiles a change under src/ and restarts the sandbox on it', async () => {
    await settled();
    const HOME = ['src', 'sandbox', 'http', 'home-page.ts'];
    const original = readFileSync(inCopy(...HOME), 'utf8');
    expect(await sandboxHome()).toContain('for development and tests (never production)');
    edit(
      HOME,
      'for development and tests (never production)',
      'for development and tests (never production; compiled by dev)',
    );
    try {
      await until('the changed home page served by the sandbox', async () =>
        (await sandboxHome()).includes('compiled by dev'),
      );
      expect(output).toMatch(/\[dev\] src\/ changed: compiling/);
    } finally {
      const rebuilds = count(/\[dev\] rebuilt in /g);
      writeFileSync(inCopy(...HOME), original);
      await until(
        'the sandbox back on the original src/',
        async () => count(/\[dev\] rebuilt in /g) > rebuilds && !(await sandboxHome()).includes('compiled by dev'),
      );
    }
  }, 600_000);

  it('keeps the last good generated/lib when compile fails, and prints the error with what to do', async () => {
    await settled();
    const before = snapshot(inCopy('generated', 'lib'));
    expect(Object.keys(before)).toContain(path.join('src', 'cli', 'index.js'));
    const broken = inCopy('src', 'dev-test-broken.ts');
    const problems = count(/problem in compile/g);
    writeFileSync(broken, "export const broken: number = 'not a number';\n");
    try {
      await until('the compile problem printed', () => count(/problem in compile/g) > problems);
      const report = output.slice(output.lastIndexOf('[dev] problem in compile'));
      expect(report).toMatch(
        /the sandbox keeps the last good generated\/lib; fix it, then save a file under src\/ or openapi\/ to compile again/,
      );
      expect(report).toMatch(/generated\/lib is left as the last compile that succeeded/);
      expect(report).toMatch(/src\/dev-test-broken\.ts\(1,14\): error TS2322/);
      await settled();
      expect(snapshot(inCopy('generated', 'lib'))).toEqual(before);
      expect(readdirSync(inCopy('generated')).filter((name) => name.startsWith('.lib-'))).toEqual([]);
      expect((await fetch(`${urls.sandbox}/v2/verifications/`)).status).toBe(401);
    } finally {
      const rebuilds = count(/\[dev\] rebuilt in /g);
      rmSync(broken, { force: true });
      await until('the compile after the broken module went', () => count(/\[dev\] rebuilt in /g) > rebuilds);
    }
  }, 600_000);

  // Last: it ends the dev the other tests use.
  it('stops the docs server, both mocks, the sandbox and every process it started on SIGTERM to npm', async () => {
    await settled();
    const started = processTree(dev.pid!).slice(1);
    expect(started.filter((p) => /prism mock/.test(p.cmd))).toHaveLength(2);
    expect(started.filter((p) => /cli\/index\.js sandbox/.test(p.cmd))).toHaveLength(1);
    const ports = Object.values(urls).map((url) => Number(new URL(url).port));

    dev.kill('SIGTERM');
    const deadline = Date.now() + 60_000;
    const left = async () => {
      const processes = started.filter(running).map((p) => `${p.pid} ${p.cmd}`);
      const listening = (await Promise.all(ports.map(async (port) => ((await accepts(port)) ? [port] : [])))).flat();
      return { processes, listening };
    };
    for (let now = await left(); now.processes.length || now.listening.length; now = await left()) {
      if (Date.now() > deadline)
        throw new Error(`still running after SIGTERM: ${JSON.stringify(now)}. npm run dev printed:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(output).toMatch(
      /\[dev\] .*stopping the watcher, the docs server, the mocks and the sandbox\n[\s\S]*\[dev\] stopped/,
    );
  }, 120_000);
});
