// Part 1: the Prism mocks against the sandbox, under the same load.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import { ROOT } from '../paths.mjs';
import { freePort, startPrism } from '../prism.mjs';
import { MeasureError, builtFile, cpuMs, findChild, spawnServer, watchMemory } from './proc.mjs';

// A seeded id of the v2 examples (the sandbox serves them; Prism answers any id).
export const V2_ID = '6f1c2b9e-4d3a-4e8b-9a61-2f7d0c5e8b14';
export const AUTH_KEY = 'bench-auth-key-0123456789';
export const ACCESS_TOKEN = 'bench-access-token-0123456789';
export const CONNECTIONS = 16;

let sequence = 0;
// A valid POST /verifications body; a new phone number and externalUserId on
// every request, so the sandbox never answers 409 for a session in review.
export function createBody() {
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
 * One autocannon run. Latencies are collected from its `response` events
 * (floating-point ms; autocannon's own histogram keeps whole ms) for 2xx
 * answers only, as autocannon does.
 */
export function load({ url, request, seconds }) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: seconds, requests: [request] },
      (err, result) => (err ? reject(err) : resolve({ result, latencies })),
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
    throw new MeasureError(`${server} ${name}: no 2xx answer under load (status codes ${codes}, ${result.errors} connection errors)`);
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

export const cases = {
  v2Get: {
    label: 'v2 GET /v2/verifications/{id}',
    request: () => ({ method: 'GET', path: `/v2/verifications/${V2_ID}`, headers: { authorization: `Bearer ${ACCESS_TOKEN}` } }),
  },
  partnerGet: {
    label: 'partner GET /verifications/{verificationId}',
    request: (id) => ({ method: 'GET', path: `/verifications/${id}`, headers: { 'x-auth-key': AUTH_KEY } }),
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

async function createOne(baseUrl) {
  const res = await fetch(`${baseUrl}/verifications`, {
    method: 'POST',
    headers: { 'x-auth-key': AUTH_KEY, 'content-type': 'application/json' },
    body: createBody(),
  });
  const body = await res.json().catch(() => null);
  if (res.status !== 201 || typeof body?.id !== 'string') {
    throw new MeasureError(`could not create a verification on ${baseUrl} to read back (status ${res.status}): ${JSON.stringify(body)}`);
  }
  return body.id;
}

async function runPrism(api, caseNames, opts, log) {
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
  const memory = watchMemory(pid);
  const results = {};
  let mem;
  try {
    // Prism answers any well-formed id.
    const partnerId = randomUUID();
    for (const name of caseNames) {
      log(`  Prism ${api}: ${cases[name].label}`);
      results[name] = await measureCase({ server: `Prism (${api})`, name, url: prism.url, request: cases[name].request(partnerId), pid, ...opts });
    }
  } finally {
    mem = memory.stop();
    await prism.stop();
  }
  return { startupMs, startupResolutionMs: 100, peakRss: mem.peak, memory: mem, processes: mem.processes, cases: results };
}

async function runSandbox(opts, log) {
  const port = await freePort();
  const cli = builtFile(ROOT, 'src', 'cli', 'index.js');
  const server = await spawnServer(
    process.execPath,
    [cli, 'sandbox', '--port', String(port), '--auth-key', AUTH_KEY, '--access-token', ACCESS_TOKEN],
    { port, cwd: ROOT, name: 'the sandbox' },
  );
  const memory = watchMemory(server.pid);
  const url = `http://127.0.0.1:${port}`;
  const results = {};
  let mem;
  const bodies = {};
  try {
    const partnerId = await createOne(url);
    // The exact bytes of each GET, for the bare server to answer.
    for (const name of ['v2Get', 'partnerGet']) {
      const { path: at, headers } = cases[name].request(partnerId);
      const res = await fetch(`${url}${at}`, { headers });
      bodies[name] = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) throw new MeasureError(`the sandbox answered ${res.status} to GET ${at}: ${bodies[name]}`);
    }
    for (const name of ['v2Get', 'partnerGet', 'partnerCreate']) {
      log(`  sandbox: ${cases[name].label}`);
      results[name] = await measureCase({ server: 'the sandbox', name, url, request: cases[name].request(partnerId), pid: server.pid, ...opts });
    }
  } finally {
    mem = memory.stop();
    await server.stop();
  }
  return { startupMs: server.startupMs, startupResolutionMs: 10, peakRss: mem.peak, memory: mem, processes: mem.processes, cases: results, bodies };
}

// The ceiling of this machine and load generator: a bare node:http server
// (a child process too) answering a GET with the sandbox's exact bytes,
// under the same load. No server can go faster, or spend less CPU, here.
const BARE_SERVER = `
const body = require('node:fs').readFileSync(0);
require('node:http').createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.argv[1]), '127.0.0.1');`;

async function runBare(name, body, opts, log) {
  const port = await freePort();
  const server = await spawnServer(process.execPath, ['-e', BARE_SERVER, String(port)], { port, cwd: ROOT, name: 'the bare node:http server', stdin: body });
  try {
    log(`  bare node:http: ${cases[name].label} (same bytes)`);
    return await measureCase({ server: 'bare node:http', name, url: `http://127.0.0.1:${port}`, request: cases[name].request(randomUUID()), pid: server.pid, ...opts });
  } finally {
    await server.stop();
  }
}

export async function benchMock({ seconds, warmup, log }) {
  const opts = { seconds, warmup };
  const prismV2 = await runPrism('v2', ['v2Get'], opts, log);
  const prismPartner = await runPrism('partner', ['partnerGet', 'partnerCreate'], opts, log);
  const sandbox = await runSandbox(opts, log);
  const bare = {};
  for (const name of ['v2Get', 'partnerGet']) bare[name] = await runBare(name, sandbox.bodies[name], opts, log);
  sandbox.bodyBytes = Object.fromEntries(Object.entries(sandbox.bodies).map(([k, b]) => [k, b.length]));
  delete sandbox.bodies;
  return {
    connections: CONNECTIONS,
    seconds,
    warmup,
    prism: { v2: prismV2, partner: prismPartner },
    sandbox,
    bare,
    labels: Object.fromEntries(Object.entries(cases).map(([k, v]) => [k, v.label])),
  };
}
