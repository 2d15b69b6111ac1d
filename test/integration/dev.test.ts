// `npm run dev` on a copy of the repository (its one commit the last
// release), started through npm with every port 0, as the API team uses it.
// The waits are generous: a test asserts what happens, not how fast (the
// 3-second loop is a figure of `npm run bench -- dev`).
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accepts } from '../../scripts/lib/prism.mjs';
import { copyProject } from '../../scripts/lib/project-copy.mjs';
import { snapshot } from '../helpers/folder-snapshot.js';

const copy = copyProject('vc-dev-');
const inCopy = (...parts: string[]) => path.join(copy.dir, ...parts);
const LEAD = 'The version 2 interface of the identity verification service is read-only';
const SANDBOX_LEAD = 'The local sandbox serves the partner integration API';
const CREATED = 'The created verification, in status `created` and without `updatedAt`.';
const quietNpm = { ...process.env, NO_UPDATE_NOTIFIER: '1' };

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
const served = (name: string, text: string) =>
  until(`${text} in ${name}`, async () => (await page(name)).includes(text));
const edit = (file: string, from: string, to: string) => {
  const text = readFileSync(inCopy(file), 'utf8');
  expect(text, file).toContain(from);
  writeFileSync(inCopy(file), text.replace(from, to));
};
const count = (pattern: RegExp) => output.match(pattern)?.length ?? 0;
/** The background steps of the last save are done (their last line is "rebuilt in"). */
const settled = () =>
  until('the background steps finished', () =>
    /^\[dev\] rebuilt in (?!.*rebuilding again)/.test(output.match(/^\[dev\] .*$/gm)?.at(-1) ?? ''),
  );
/** Waits for the steps after undoing an edit of `file` (its text before: `original`). */
const undo = async (file: string, original: string) => {
  const rebuilds = count(/\[dev\] rebuilt in /g);
  writeFileSync(inCopy(file), original);
  await until(`the rebuild after undoing the edit of ${file}`, () => count(/\[dev\] rebuilt in /g) > rebuilds);
};
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
const devPid = () => Number(readFileSync(inCopy('generated', '.dev.pid'), 'utf8'));
/** The live processes of npm's process group (npm, its shell, dev and all dev started), with their command lines (Linux /proc). */
const group = () =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const [state, , pgrp] = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
        return Number(pgrp) === dev.pid && state !== 'Z' ? [{ pid: Number(pid), cmd }] : [];
      } catch {
        return []; // gone meanwhile
      }
    });

beforeAll(async () => {
  // The copy's one commit is its release: the newest commit to set package.json's version.
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
    ['commit', '-q', '-m', 'Release'],
  ])
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: copy.dir });
  // Each port 0, two through options and two through the environment; a
  // process group of its own, as a terminal gives it.
  dev = spawn('npm', ['run', 'dev', '--', '--port', '0', '--mock-v2-port', '0'], {
    cwd: copy.dir,
    env: { ...quietNpm, SANDBOX_PORT: '0', MOCK_PARTNER_PORT: '0' },
    detached: true,
  });
  dev.stdout!.on('data', (d) => (output += d));
  dev.stderr!.on('data', (d) => (output += d));
  await until('dev watching openapi/', () => /watching openapi\//.test(output));
  urls.docs = /docs: (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)![1];
  urls.sandbox = /\[dev\] sandbox: (http:\S+)/.exec(output)![1];
  urls.v2Mock = /Verification API v2 mock: (http:\S+)/.exec(output)![1];
  urls.partnerMock = /Partner Integration API mock: (http:\S+)/.exec(output)![1];

  // The page's reload channel, as the injected script opens it.
  const stream = await fetch(`${urls.docs}/__dev/events`);
  expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
  (async () => {
    for await (const chunk of stream.body!)
      events.push(
        ...Buffer.from(chunk)
          .toString()
          .split('\n')
          .filter((line) => line.startsWith('event:')),
      );
  })().catch(() => {});
}, 600_000);

afterAll(async () => {
  // The whole group, as a closing terminal signals it (npm passes SIGTERM to its shell alone).
  if (dev && !ended()) process.kill(-dev.pid!, 'SIGTERM');
  for (const deadline = Date.now() + 30_000; group().length && Date.now() < deadline; )
    await new Promise((r) => setTimeout(r, 200));
  if (process.env.DEV_TEST_LOG) console.log(output);
  copy.remove();
}, 60_000);

it('listens on a port of its own choosing for each server asked for port 0, and prints the address it got', async () => {
  const ports = Object.values(urls).map((url) => Number(new URL(url).port));
  expect(ports.every((port) => port > 0)).toBe(true);
  expect(new Set(ports).size).toBe(4);
  for (const port of ports) expect(await accepts(port)).toBe(true);
  const verifications = await fetch(`${urls.partnerMock}/verifications`, { headers: { 'X-Auth-Key': 'dev-test' } });
  expect(verifications.status).toBe(200);
});

it('serves the docs with a reload script that the files on disk do not carry', async () => {
  const v2 = await page('v2.html');
  expect(v2).toContain(LEAD);
  expect(v2).toContain("new EventSource('/__dev/events')");
  expect(readFileSync(inCopy('generated', 'docs', 'v2.html'), 'utf8')).not.toContain('__dev/events');
  expect(await page('index.html')).toContain('./v2.html');
});

it('shows a one-line description edit, reloads the page, the mock reloads and the sandbox restarts on the new bundle', async () => {
  expect(await mockExternalId()).toBe('signup-58213');
  const [starts, reloads] = [count(/\[dev\] sandbox: /g), events.length];
  edit('openapi/v2/openapi.yaml', `${LEAD}:`, `${LEAD} (edited by the dev test):`);
  edit('openapi/v2/components/examples/VerificationCreated.yaml', 'signup-58213', 'signup-dev-test');
  await served('v2.html', `${LEAD} (edited by the dev test):`);
  expect(readFileSync(inCopy('generated', 'openapi', 'v2.yaml'), 'utf8')).toContain('(edited by the dev test)');
  await until('a reload event', () => events.length > reloads);
  expect(events.at(-1)).toBe('event: reload');
  await until('the mock answering from the new bundle', async () => (await mockExternalId()) === 'signup-dev-test');
  await until('the sandbox restarted on the new bundle', () => count(/\[dev\] sandbox: /g) > starts);
  expect(/\[dev\] sandbox: (http:\S+)/.exec(output.slice(output.lastIndexOf('[dev] sandbox: ')))![1]).toBe(
    urls.sandbox,
  );
  expect((await fetch(`${urls.sandbox}/v2/verifications/`)).status).toBe(401);
}, 600_000);

it('shows each of several saves of one file made by renaming a new file over it, as editors save', async () => {
  const file = inCopy('openapi', 'partner', 'paths', 'verifications.yaml');
  const original = readFileSync(file, 'utf8');
  expect(original).toContain(CREATED);
  for (const save of [1, 2, 3]) {
    // As vim, JetBrains' safe write and `sed -i` save: a new file in the same folder, renamed over the old.
    writeFileSync(`${file}.dev-test-save`, original.replace(CREATED, `${CREATED} (saved by rename ${save})`));
    renameSync(`${file}.dev-test-save`, file);
    await served('partner.html', `(saved by rename ${save})`);
    if (save > 1) expect(await page('partner.html')).not.toContain(`(saved by rename ${save - 1})`);
  }
}, 600_000);

it('prints a lint problem as it happens and goes on watching', async () => {
  // In the sandbox control API, which has no mock to restart. An unused
  // component: bundled and rendered fine, refused by Redocly's lint.
  const file = 'openapi/sandbox/openapi.yaml';
  const source = readFileSync(inCopy(file), 'utf8');
  expect(source).toContain(SANDBOX_LEAD);
  expect(source).not.toMatch(/^components:/m);
  const unused = 'components:\n  schemas:\n    UnusedByDevTest:\n      type: object\n';
  writeFileSync(inCopy(file), `${source.replace(SANDBOX_LEAD, `${SANDBOX_LEAD} (edited once)`).trimEnd()}\n${unused}`);
  await served('sandbox.html', `${SANDBOX_LEAD} (edited once)`);
  await until('the lint problem printed', () => /problem in lint-sources[\s\S]*no-unused-components/.test(output));
  expect(ended()).toBe(false);
  writeFileSync(inCopy(file), source.replace(SANDBOX_LEAD, `${SANDBOX_LEAD} (edited twice)`));
  await served('sandbox.html', `${SANDBOX_LEAD} (edited twice)`);
}, 600_000);

it('refuses npm run build beside it, naming its pid, and still runs the lints', async () => {
  await settled();
  const pid = devPid();
  expect(group().find((p) => p.pid === pid)?.cmd).toMatch(/scripts\/dev\.mjs/);
  const build = spawnSync('npm', ['run', 'build'], { cwd: copy.dir, encoding: 'utf8', env: quietNpm });
  expect(build.status).toBe(1);
  expect(build.stderr).toContain(`npm run dev (pid ${pid}) is running in this checkout`);
  expect(build.stderr).toContain(`kill ${pid}`);
  const lint = spawnSync(process.execPath, ['scripts/build.mjs', '--only', 'lint-sources'], {
    cwd: copy.dir,
    encoding: 'utf8',
  });
  expect(lint.status, lint.stderr).toBe(0);
  expect(lint.stdout).toMatch(/lint-sources: .* clean/);
}, 120_000);

it('compiles a change under src/ and restarts the sandbox on it', async () => {
  await settled();
  const file = 'src/sandbox/http/home-page.ts';
  const original = readFileSync(inCopy(file), 'utf8');
  expect(await sandboxHome()).toContain('for development and tests (never production)');
  edit(file, 'tests (never production)', 'tests (never production; compiled by dev)');
  try {
    await until('the changed home page', async () => (await sandboxHome()).includes('compiled by dev'));
    expect(output).toMatch(/\[dev\] src\/ changed: compiling/);
  } finally {
    await undo(file, original);
  }
  expect(await sandboxHome()).not.toContain('compiled by dev');
}, 600_000);

it('prints a response field renamed by mistake as breaking, and keeps the last good generated/lib when compile fails', async () => {
  await settled();
  const before = snapshot(inCopy('generated', 'lib'));
  expect(Object.keys(before)).toContain(path.join('src', 'cli', 'index.js'));
  const file = 'openapi/partner/components/schemas/Verification.yaml';
  const original = readFileSync(inCopy(file), 'utf8');
  const problems = count(/problem in compile/g);
  // The answer's `url` renamed to `link`, where the schema lists and requires it.
  const renamed = original.replace(/^ {2}url:$/m, '  link:').replace(/^ {2}- url$/m, '  - link');
  expect(renamed).not.toBe(original);
  writeFileSync(inCopy(file), renamed);
  try {
    await until('the compile problem printed', () => count(/problem in compile/g) > problems);
    await settled();
    // Printed as it is found, and again after the rebuild's last line.
    const breaking = /^breaking against release \S+: partner .*\burl\b.*removed/m;
    expect(output.slice(output.lastIndexOf('[dev] docs updated'), output.lastIndexOf('[dev] rebuilt in'))).toMatch(
      breaking,
    );
    await until('the breaking lines again after the rebuild', () =>
      breaking.test(output.slice(output.lastIndexOf('[dev] rebuilt in'))),
    );
    const report = output.slice(output.lastIndexOf('[dev] problem in compile'));
    expect(report).toMatch(/src\/\S+\.ts\(\d+,\d+\): error TS\d+/);
    expect(snapshot(inCopy('generated', 'lib'))).toEqual(before);
    expect(readdirSync(inCopy('generated')).filter((name) => name.startsWith('.lib-'))).toEqual([]);
    expect((await fetch(`${urls.sandbox}/v2/verifications/`)).status).toBe(401);
  } finally {
    await undo(file, original);
  }
}, 600_000);

// Last: it ends the dev the other tests use.
it('stops the docs server, both mocks, the sandbox and every process it started on SIGTERM to its pid', async () => {
  await settled();
  const started = group().map((p) => p.cmd);
  expect(started.filter((cmd) => /prism mock/.test(cmd))).toHaveLength(2);
  expect(started.filter((cmd) => /cli\/index\.js sandbox/.test(cmd))).toHaveLength(1);
  const ports = Object.values(urls).map((url) => Number(new URL(url).port));
  process.kill(devPid(), 'SIGTERM');
  const left = async () => ({
    processes: group().map((p) => `${p.pid} ${p.cmd}`),
    listening: (await Promise.all(ports.map(async (port) => ((await accepts(port)) ? [port] : [])))).flat(),
  });
  for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 200))) {
    const now = await left();
    if (!now.processes.length && !now.listening.length) break;
    if (Date.now() > deadline)
      throw new Error(`still running after SIGTERM: ${JSON.stringify(now)}. npm run dev printed:\n${output}`);
  }
  expect(existsSync(inCopy('generated', '.dev.pid'))).toBe(false);
}, 120_000);
