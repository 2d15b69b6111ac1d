// Part "mock": Prism, what a partner would otherwise run, against the sandbox
// holding 1,000 verifications, under the same load: the server CPU per
// request of each operation measured, the sandbox's bound at 0.5× Prism's.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import { ROOT } from '../paths.mjs';
import { freePort, startPrism } from '../prism.mjs';
import {
  MeasureError,
  builtFile,
  cpuMs,
  findChild,
  pinServer,
  pinning,
  spawnServer,
  watchMemory,
  withLoadPinned,
} from './proc.mjs';

// A seeded id of the v2 examples (the sandbox serves them; Prism answers any id).
export const V2_ID = '6f1c2b9e-4d3a-4e8b-9a61-2f7d0c5e8b14';
export const AUTH_KEY = 'bench-auth-key-0123456789';
const ACCESS_TOKEN = 'bench-access-token-0123456789';
const CONNECTIONS = 16;
/** How many verifications the sandbox holds while the operations are measured. */
const STORED = 1_000;

let sequence = 0;
// A valid POST /verifications body; a new phone number and externalUserId on
// every request, so the sandbox never answers 409 for a session in review.
function createBody() {
  sequence += 1;
  return JSON.stringify({
    externalUserId: randomUUID(),
    redirectUrl: 'https://partner.example.com/kyc/done',
    phoneNumbers: [{ phoneNumber: `+49151${String(sequence).padStart(8, '0')}`, isVerified: false }],
    requirements: [{ type: 'document' }, { type: 'dateOfBirth' }],
    timeToExpiry: 60,
  });
}

function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * One autocannon run of `request`, or of `requests` in turn on each
 * connection (a later one may use an earlier one's answer, through
 * autocannon's context). Latencies are collected from its `response` events
 * (floating-point ms; autocannon's own histogram keeps whole ms) for 2xx
 * answers only, as autocannon does.
 */
export function load({ url, request, requests = [request], seconds }) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const instance = autocannon({ url, connections: CONNECTIONS, duration: seconds, requests }, (err, result) =>
      err ? reject(err) : resolve({ result, latencies }),
    );
    instance.on('response', (_client, statusCode, _bytes, ms) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(ms);
    });
  });
}

/**
 * One load case after a warm-up: req/s and latencies as the load generator
 * sees them, and the server's own CPU time (user + system of its process
 * tree, `pid`) over the requests it answered.
 */
export async function measureCase({ server, name, url, request, seconds, warmup, pid }) {
  if (warmup > 0) await load({ url, request, seconds: warmup });
  const cpuBefore = cpuMs(pid);
  const { result, latencies } = await load({ url, request, seconds });
  const cpuUsedMs = cpuMs(pid) - cpuBefore;
  const ok = result['2xx'];
  const total = ok + result.non2xx;
  if (ok === 0) {
    const codes = JSON.stringify(result.statusCodeStats);
    throw new MeasureError(
      `${server} ${name}: no 2xx answer under load (status codes ${codes}, ${result.errors} connection errors)`,
    );
  }
  latencies.sort((a, b) => a - b);
  return {
    reqPerSec: ok / result.duration,
    cpuMsPerRequest: cpuUsedMs / total,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: total,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([k, v]) => [k, v.count])),
    seconds: result.duration,
  };
}

/** The operations measured, each on Prism and on the sandbox; `id` is a stored verification's (any for Prism). */
export const cases = {
  v2Get: {
    label: 'v2 GET /v2/verifications/{id}',
    request: () => ({
      method: 'GET',
      path: `/v2/verifications/${V2_ID}`,
      headers: { authorization: `Bearer ${ACCESS_TOKEN}` },
    }),
  },
  v2List: {
    label: 'v2 GET /v2/verifications/?statuses=APPROVED',
    request: () => ({
      method: 'GET',
      path: '/v2/verifications/?statuses=APPROVED',
      headers: { authorization: `Bearer ${ACCESS_TOKEN}` },
    }),
  },
  partnerGet: {
    label: 'partner GET /verifications/{verificationId}',
    request: (id) => ({ method: 'GET', path: `/verifications/${id}`, headers: { 'x-auth-key': AUTH_KEY } }),
  },
  partnerList: {
    label: 'partner GET /verifications?status=created&page=2',
    request: () => ({
      method: 'GET',
      path: '/verifications?status=created&page=2',
      headers: { 'x-auth-key': AUTH_KEY },
    }),
  },
  partnerHistory: {
    label: 'partner GET /verifications/{verificationId}/webhooks',
    request: (id) => ({ method: 'GET', path: `/verifications/${id}/webhooks`, headers: { 'x-auth-key': AUTH_KEY } }),
  },
  partnerCreate: {
    label: 'partner POST /verifications',
    request: () => ({
      method: 'POST',
      path: '/verifications',
      headers: { 'x-auth-key': AUTH_KEY, 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: createBody() }),
    }),
  },
};
const API_OF = {
  v2Get: 'v2',
  v2List: 'v2',
  partnerGet: 'partner',
  partnerList: 'partner',
  partnerHistory: 'partner',
  partnerCreate: 'partner',
};

export async function createOne(baseUrl) {
  const res = await fetch(`${baseUrl}/verifications`, {
    method: 'POST',
    headers: { 'x-auth-key': AUTH_KEY, 'content-type': 'application/json' },
    body: createBody(),
  });
  const body = await res.json().catch(() => null);
  if (res.status !== 201 || typeof body?.id !== 'string') {
    throw new MeasureError(
      `could not create a verification on ${baseUrl} to read back (status ${res.status}): ${JSON.stringify(body)}`,
    );
  }
  return body.id;
}

/** Creates `count` verifications as fast as the sandbox takes them (16 connections). */
export function fill(url, count) {
  return new Promise((resolve, reject) => {
    if (count <= 0) return resolve();
    autocannon(
      { url, connections: CONNECTIONS, amount: count, requests: [cases.partnerCreate.request()] },
      (err, result) => {
        if (err) return reject(err);
        if (result['2xx'] !== count)
          return reject(
            new MeasureError(
              `filling the sandbox: ${result['2xx']} of ${count} creates answered 201 (${JSON.stringify(result.statusCodeStats)})`,
            ),
          );
        resolve();
      },
    );
  });
}

/** Empties a sandbox (POST /_sandbox/reset) and fills it to `count` verifications; answers the first one's id. */
async function refill(url, count) {
  const reset = await fetch(`${url}/_sandbox/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
  });
  if (reset.status !== 204) throw new MeasureError(`the sandbox answered ${reset.status} to POST /_sandbox/reset`);
  const id = await createOne(url);
  await fill(url, count - 1);
  return id;
}

/** The median of some numbers. */
const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const FIGURES = ['reqPerSec', 'cpuMsPerRequest', 'p50', 'p99'];

/** One figure set from a case's rounds: the median of each figure, the counts summed, and every round kept. */
export function combineRounds(rounds) {
  const out = { ...rounds[0] };
  for (const f of FIGURES) out[f] = median(rounds.map((r) => r[f]));
  for (const f of ['requests', 'ok', 'non2xx', 'errors', 'seconds']) out[f] = rounds.reduce((n, r) => n + r[f], 0);
  out.statusCodes = {};
  for (const r of rounds)
    for (const [code, n] of Object.entries(r.statusCodes)) out.statusCodes[code] = (out.statusCodes[code] ?? 0) + n;
  out.rounds = rounds.map((r) => Object.fromEntries(FIGURES.map((f) => [f, r[f]])));
  return out;
}

export async function startPrismServer(api) {
  const port = await freePort();
  const document = path.join(ROOT, 'generated', 'openapi', `${api}.yaml`);
  const start = performance.now();
  let prism;
  try {
    prism = await startPrism({ document, port, logLevel: 'silent' });
  } catch (err) {
    throw new MeasureError(`Prism (${api}) did not start: ${err.message}`);
  }
  const startupMs = performance.now() - start;
  const pid = findChild(`-p ${port}`);
  if (!pid) {
    await prism.stop();
    throw new MeasureError(`Prism (${api}) runs but its process was not found among this process's children`);
  }
  pinServer(pid);
  return {
    name: `Prism (${api})`,
    url: prism.url,
    pid,
    startupMs,
    startupResolutionMs: 100,
    memory: watchMemory(pid),
    stop: () => prism.stop(),
  };
}

export async function startSandboxServer(extra = []) {
  const port = await freePort();
  const cli = builtFile(ROOT, 'src', 'cli', 'index.js');
  const server = await spawnServer(
    process.execPath,
    [cli, 'sandbox', '--port', String(port), '--auth-key', AUTH_KEY, '--access-token', ACCESS_TOKEN, ...extra],
    {
      port,
      cwd: ROOT,
      name: 'the sandbox',
      pin: true,
    },
  );
  return {
    name: 'the sandbox',
    url: `http://127.0.0.1:${port}`,
    pid: server.pid,
    startupMs: server.startupMs,
    startupResolutionMs: 10,
    memory: watchMemory(server.pid),
    stop: server.stop,
  };
}

/**
 * Prism (one process per API) and the sandbox holding STORED verifications,
 * every server running at once (idle while another is measured); the cases
 * are measured in `rounds` interleaved rounds, each server in turn, and each
 * figure is the median of its rounds, so a slow spell of the machine lands
 * on every server alike. Creates go to a second sandbox, emptied and filled
 * to STORED again before each round, so the reads' sandbox stays at STORED.
 */
export async function benchMock({ seconds, warmup, rounds = 3, log }) {
  return withLoadPinned(async () => {
    const running = [];
    const started = async (promise) => {
      const server = await promise;
      running.push(server);
      return server;
    };
    try {
      const prism = { v2: await started(startPrismServer('v2')), partner: await started(startPrismServer('partner')) };
      const sandbox = await started(startSandboxServer());
      const creating = await started(startSandboxServer());
      log(`  filling the sandbox to ${STORED.toLocaleString('en-US')} verifications`);
      const partnerId = await refill(sandbox.url, STORED);
      const samples = new Map();
      const measure = async (round, name, server, kind) => {
        log(`  round ${round}/${rounds}: ${server.name}: ${cases[name].label}`);
        const id = kind === 'prism' ? randomUUID() : partnerId;
        // Warm-up once per server and case; later rounds find it warm.
        const figures = await measureCase({
          server: server.name,
          name,
          url: server.url,
          request: cases[name].request(id),
          pid: server.pid,
          seconds,
          warmup: round === 1 ? warmup : 0,
        });
        const key = `${kind}:${name}`;
        samples.set(key, [...(samples.get(key) ?? []), figures]);
      };
      for (let round = 1; round <= rounds; round++) {
        for (const name of Object.keys(cases)) {
          await measure(round, name, prism[API_OF[name]], 'prism');
          if (name === 'partnerCreate') await refill(creating.url, STORED);
          await measure(round, name, name === 'partnerCreate' ? creating : sandbox, 'sandbox');
        }
      }
      const of = (kind, name) => combineRounds(samples.get(`${kind}:${name}`));
      const memoryOf = (server) => {
        const mem = server.memory.stop();
        return { peakRss: mem.peak, memory: mem, processes: mem.processes };
      };
      const prismResult = (server) => ({
        startupMs: server.startupMs,
        startupResolutionMs: server.startupResolutionMs,
        ...memoryOf(server),
      });
      return {
        connections: CONNECTIONS,
        stored: STORED,
        seconds,
        warmup,
        rounds,
        pinned: pinning.pinned
          ? { load: `CPU ${pinning.load}`, servers: `CPU ${pinning.server}` }
          : { why: pinning.why },
        prism: {
          v2: prismResult(prism.v2),
          partner: prismResult(prism.partner),
          cases: Object.fromEntries(Object.keys(cases).map((n) => [n, of('prism', n)])),
        },
        sandbox: {
          startupMs: sandbox.startupMs,
          startupResolutionMs: sandbox.startupResolutionMs,
          ...memoryOf(sandbox),
          cases: Object.fromEntries(Object.keys(cases).map((n) => [n, of('sandbox', n)])),
        },
        labels: Object.fromEntries(Object.entries(cases).map(([k, v]) => [k, v.label])),
      };
    } finally {
      for (const server of running) await server.stop();
    }
  });
}
