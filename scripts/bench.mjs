// npm run bench [-- PART...]: what a user of the package feels, measured on
// loopback and printed as one table (guides/benchmarks.md says what each
// part measures). It reports and never fails on a figure; it exits 1 when a
// part could not be measured, saying which and why.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { Bench } from 'tinybench';
import { bundleReceiver, RECEIVERS } from './lib/bench/edge-bundles.mjs';
import { ROOT } from './lib/paths.mjs';
import { copyProject } from './lib/project-copy.mjs';
import { freePort, mockDocumentOf, startPrism } from './lib/prism.mjs';

const USAGE = `Usage: npm run bench [-- PART...] [--seconds N]

  PART         any of: sandbox, restart, dev, delivery, edge (default: all)
  --seconds N  measured seconds of each load case of "sandbox" and of "delivery" (default 3)`;

const AUTH_KEY = 'bench-auth-key-0123456789';
const ACCESS_TOKEN = 'bench-access-token-0123456789';
// The partner API takes Content-Type on every call, GETs included.
const PARTNER = { 'x-auth-key': AUTH_KEY, 'content-type': 'application/json' };
// A seeded id of the v2 examples: the local sandbox serves it, Prism answers any id.
const V2_ID = '6f1c2b9e-4d3a-4e8b-9a61-2f7d0c5e8b14';
const CLI = path.join(ROOT, 'generated', 'lib', 'src', 'cli', 'index.js');
/** How many verifications the restart part stores before it kills the sandbox. */
const RESTART_AT = 2_000;

/** A figure that could not be taken: the part is reported as not measured. */
class MeasureError extends Error {}

const log = (line) => process.stderr.write(`${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const ms = (v) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(1)} ms`);
const bytes = (n) => `${n.toLocaleString('en-US')} B`;

/** Polls `check` until it returns something truthy; a MeasureError naming `what` after `timeoutMs`. */
async function until(what, check, timeoutMs, everyMs = 20) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    // A fetch refused while a server starts is a not yet; a MeasureError ends the wait.
    const value = await check().catch((err) => (err instanceof MeasureError ? Promise.reject(err) : undefined));
    if (value) return value;
    if (performance.now() > deadline) throw new MeasureError(`${what}: not seen within ${timeoutMs / 1000} s`);
    await sleep(everyMs);
  }
}

/**
 * User + system CPU time, in ms, of a process and its descendants so far
 * (/proc/PID/stat; Linux only, which is where the figures are taken).
 */
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
function cpuMs(pid) {
  let total = 0;
  const pids = [pid];
  for (const p of pids) {
    try {
      // The fields after the command name, which may hold spaces and ends with ')'.
      const fields = fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ').at(-1).split(' ');
      total += Number(fields[11]) + Number(fields[12]);
      // Node starts child processes (Prism's cluster workers too) from its main thread.
      const children = fs.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8');
      pids.push(...children.split(/\s+/).filter(Boolean).map(Number));
    } catch {
      // a process that ended between listing and reading
    }
  }
  return (total * 1000) / TICKS_PER_SECOND;
}

/** The local sandbox's command, as a user starts it, on a free port; resolves once it answers. */
async function startSandboxProcess(extra = []) {
  const port = await freePort();
  const args = [CLI, 'sandbox', '--port', String(port), '--auth-key', AUTH_KEY, '--access-token', ACCESS_TOKEN];
  const child = spawn(process.execPath, [...args, ...extra], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (d) => (errors += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const answering = async () => {
    if (child.exitCode !== null) throw new MeasureError(`the local sandbox exited: ${errors.trim()}`);
    return storedCount(url);
  };
  const count = await until('the local sandbox answering', answering, 30_000, 5);
  const stop = async (signal = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { url, pid: child.pid, count: count - 1, answeredMs: performance.now() - started, stop };
}

/** How many verifications a sandbox holds, plus one (so that an empty one is truthy); undefined until it answers. */
async function storedCount(url) {
  const res = await fetch(`${url}/verifications?limit=0`, { headers: PARTNER });
  return res.status === 200 ? (await res.json()).count + 1 : undefined;
}

let sequence = 0;
/** A valid POST /verifications; a new phone number each time, so no create meets an open session (409). */
function createBody() {
  sequence += 1;
  return JSON.stringify({
    externalUserId: randomUUID(),
    redirectUrl: 'https://partner.example.com/kyc/done',
    phoneNumbers: [{ phoneNumber: `+49151${String(sequence).padStart(8, '0')}`, isVerified: false }],
    requirements: [{ type: 'document' }, { type: 'dateOfBirth' }],
  });
}
const CREATE = {
  method: 'POST',
  path: '/verifications',
  headers: PARTNER,
  setupRequest: (req) => ({ ...req, body: createBody() }),
};

/** An autocannon run of one request on 16 connections, for `seconds` or `amount` requests. */
const load = (url, request, length) => autocannon({ url, connections: 16, requests: [request], ...length });

/** Server CPU per request of one case: a 1 s warm-up, then `seconds` under load, every answer counted. */
async function cpuPerRequest(server, request, seconds) {
  await load(server.url, request, { duration: 1 });
  const before = cpuMs(server.pid);
  const result = await load(server.url, request, { duration: seconds });
  const used = cpuMs(server.pid) - before;
  if (result['2xx'] === 0)
    throw new MeasureError(`${server.name}: no 2xx answer to ${request.method} ${request.path} under load`);
  return (used * 1000) / (result['2xx'] + result.non2xx);
}

async function sandboxPart({ seconds }) {
  const running = [];
  try {
    const prism = {};
    for (const api of ['partner', 'v2']) {
      const started = await startPrism({ document: mockDocumentOf(api), port: 0, logLevel: 'silent' });
      running.push(started);
      prism[api] = { ...started, name: `Prism (${api})` };
    }
    const sandbox = { ...(await startSandboxProcess()), name: 'the local sandbox' };
    running.push(sandbox);
    const created = await fetch(`${sandbox.url}/verifications`, { ...CREATE, body: createBody() });
    if (created.status !== 201) throw new MeasureError(`the local sandbox answered ${created.status} to a create`);
    const { id } = await created.json();
    // 1,000 stored, so that a list filters and counts as many as in a partner's test suite.
    await load(sandbox.url, CREATE, { amount: 999 });
    const bearer = { authorization: `Bearer ${ACCESS_TOKEN}` };
    const cases = [
      ['partner', { method: 'GET', path: `/verifications/${id}`, headers: PARTNER }],
      ['partner', { method: 'GET', path: '/verifications?status=created', headers: PARTNER }],
      ['partner', CREATE],
      ['v2', { method: 'GET', path: `/v2/verifications/${V2_ID}`, headers: bearer }],
    ];
    const rows = [];
    for (const [api, request] of cases) {
      const label = `${request.method} ${request.path.replace(id, '{id}').replace(V2_ID, '{id}')}`;
      log(`  ${label}`);
      const theirs = await cpuPerRequest(prism[api], request, seconds);
      const ours = await cpuPerRequest(sandbox, request, seconds);
      rows.push([
        `server CPU per request, ${label}`,
        `${ours.toFixed(0)} µs`,
        `Prism ${theirs.toFixed(0)} µs (${(ours / theirs).toFixed(2)}×)`,
      ]);
    }
    return rows;
  } finally {
    for (const server of running) await server.stop();
  }
}

async function restartPart() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-bench-state-'));
  const state = ['--state', path.join(folder, 'state.json')];
  try {
    let sandbox = await startSandboxProcess(state);
    log(`  storing ${RESTART_AT.toLocaleString('en-US')} verifications`);
    await load(sandbox.url, CREATE, { amount: RESTART_AT });
    const stored = (await storedCount(sandbox.url)) - 1;
    const times = [];
    for (let round = 1; round <= 3; round++) {
      await sandbox.stop('SIGKILL');
      sandbox = await startSandboxProcess(state);
      if (sandbox.count !== stored)
        throw new MeasureError(`the restarted sandbox holds ${sandbox.count} verifications, not ${stored}`);
      times.push(sandbox.answeredMs);
    }
    await sandbox.stop();
    const measure = `kill -9 → answering again with ${stored.toLocaleString('en-US')} verifications (--state)`;
    return [[measure, ms(median(times)), `median of 3: ${times.map(ms).join(', ')}`]];
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * `npm run dev` in a scratch copy of this checkout, every port free; each
 * round saves an edit of the partner document's title as editors save (a copy
 * renamed over it) and times the rename until the served page shows it.
 */
async function devPart() {
  const copy = copyProject('vc-bench-dev-');
  const env = { ...process.env, DEV_PORT: '0', SANDBOX_PORT: '0', MOCK_V2_PORT: '0', MOCK_PARTNER_PORT: '0' };
  // Its own process group, so that npm, dev and the servers dev starts stop together.
  const dev = spawn('npm', ['run', 'dev'], { cwd: copy.dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [dev.stdout, dev.stderr]) stream.on('data', (d) => (output += d));
  try {
    log('  npm run dev in a copy of the checkout: waiting for the served page');
    const page = await until(
      'npm run dev serving partner.html',
      async () => {
        if (dev.exitCode !== null) throw new MeasureError(`npm run dev exited:\n${output.slice(-2000)}`);
        const docs = /docs:? +(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
        return docs && (await fetch(`${docs}/partner.html`)).ok && `${docs}/partner.html`;
      },
      600_000,
      500,
    );
    const file = path.join(copy.dir, 'openapi', 'partner', 'openapi.yaml');
    const original = fs.readFileSync(file, 'utf8');
    const times = [];
    for (let round = 1; round <= 3; round++) {
      const marker = `Bench save ${round}`;
      fs.writeFileSync(`${file}.tmp`, original.replace(/^( {2}title: .*)$/m, `$1 (${marker})`));
      const start = performance.now();
      fs.renameSync(`${file}.tmp`, file);
      await until(
        `save ${round} in the served page`,
        async () => (await (await fetch(page)).text()).includes(marker),
        60_000,
        50,
      );
      times.push(performance.now() - start);
      log(`  save ${round}: ${ms(times.at(-1))}`);
      // The steps dev runs after the page (lint, types, compile) finish before the next save.
      if (round < 3) await sleep(15_000);
    }
    const beside = `median of 3: ${times.map(ms).join(', ')}; target ≤ 3 s`;
    return [['save → page served by npm run dev', ms(median(times)), beside]];
  } finally {
    // The whole group, not only npm: a step dev started may still be writing into the copy it removes.
    const signal = (name) => {
      try {
        process.kill(-dev.pid, name);
        return true;
      } catch {
        return false; // the group has ended
      }
    };
    const stopped = () => until('npm run dev stopping', async () => !signal(0), 10_000, 100);
    signal('SIGTERM');
    await stopped().catch(() => signal('SIGKILL') && stopped());
    copy.remove();
  }
}

/**
 * A `startSandbox` and a `node:http` receiver in this process; each tinybench
 * iteration creates a verification and waits for its webhook's 200. The lag
 * runs from the emission (`onWebhook`) to the receiver writing its 200.
 */
async function deliveryPart({ seconds }) {
  const { startSandbox } = await import(
    pathToFileURL(path.join(ROOT, 'generated', 'lib', 'src', 'sandbox-client.js')).href
  );
  const emitted = new Map();
  const lags = [];
  const receiver = createServer(async (req, res) => {
    const event = JSON.parse(Buffer.concat(await req.toArray()).toString('utf8'));
    res.writeHead(200).end();
    lags.push(performance.now() - emitted.get(event.eventId));
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const sandbox = await startSandbox({
    port: 0,
    authKey: AUTH_KEY,
    webhookUrl: `http://127.0.0.1:${receiver.address().port}/hooks`,
    onWebhook: (event) => emitted.set(event.eventId, performance.now()),
  });
  try {
    const bench = new Bench({ time: seconds * 1000, warmupTime: 500 });
    bench.add('create → webhook answered 200', async () => {
      const res = await fetch(`${sandbox.url}/verifications`, { ...CREATE, body: createBody() });
      const { id } = await res.json();
      await sandbox.waitForDelivery((event) => event.data.verificationId === id, { timeoutMs: 10_000 });
    });
    await bench.run();
    const sorted = lags.sort((a, b) => a - b);
    const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
    const roundTrip = `create → 200 p50 ${ms(bench.tasks[0].result.latency.p50)}`;
    const beside = `p99 ${ms(at(0.99))} of ${sorted.length.toLocaleString('en-US')}; ${roundTrip}`;
    return [['webhook emission → receiver answered 200', `p50 ${ms(at(0.5))}`, beside]];
  } finally {
    await sandbox.close();
    receiver.closeAllConnections();
    receiver.close();
  }
}

/** The verify-only receivers bundled from this checkout's build, minified and gzipped. */
async function edgePart() {
  const alias = {
    '@verification-service/contracts/webhooks': path.join(ROOT, 'generated', 'lib', 'src', 'webhooks', 'index.js'),
  };
  const rows = [];
  for (const [name, { budget, parses }] of Object.entries(RECEIVERS)) {
    if (parses) continue;
    const code = await bundleReceiver(ROOT, RECEIVERS[name].source, alias);
    const beside = `${bytes(gzipSync(code, { level: 9 }).length)} gzipped; promise ≤ ${bytes(budget)} minified`;
    rows.push([`edge receiver importing ${name} (esbuild, minified)`, bytes(Buffer.byteLength(code)), beside]);
  }
  return rows;
}

const PARTS = { sandbox: sandboxPart, restart: restartPart, dev: devPart, delivery: deliveryPart, edge: edgePart };

/** The parts and seconds asked for; usage on --help, or with what was wrong (exit 2). */
function options() {
  try {
    const { values, positionals } = parseArgs({
      options: { seconds: { type: 'string', default: '3' }, help: { type: 'boolean' } },
      allowPositionals: true,
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    const unknown = positionals.filter((p) => !Object.hasOwn(PARTS, p));
    if (unknown.length) throw new Error(`the parts are ${Object.keys(PARTS).join(', ')}; not ${unknown.join(', ')}`);
    const seconds = Number(values.seconds);
    if (!(seconds >= 1 && seconds <= 60)) throw new Error(`--seconds takes 1 to 60, not "${values.seconds}"`);
    return { only: positionals.length ? positionals : Object.keys(PARTS), seconds };
  } catch (err) {
    console.error(`error: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
}
const { only, seconds } = options();
if (!fs.existsSync(CLI)) {
  console.error('error: generated/lib is missing; run `npm run build` first, then the bench again');
  process.exit(1);
}

const rows = [['part', 'measure', 'figure', 'beside it']];
const failed = [];
const load1 = os.loadavg()[0].toFixed(2);
log(`bench: ${only.join(', ')} on ${os.cpus().length} cores, Node ${process.version}, load average ${load1}`);
for (const name of only) {
  log(`${name}:`);
  try {
    rows.push(...(await PARTS[name]({ seconds })).map((row) => [name, ...row]));
  } catch (err) {
    failed.push(`${name}: ${err instanceof MeasureError ? err.message : err.stack}`);
    log(`${name}: could not be measured`);
  }
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
const line = (row) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ');
for (const row of rows) console.log(line(row).trimEnd());
if (failed.length) {
  console.error(`\nerror: not measured:\n${failed.map((f) => `- ${f}`).join('\n')}`);
  process.exit(1);
}
// A keep-alive socket of fetch must not hold the figures back.
process.exit(0);
