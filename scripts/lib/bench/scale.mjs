// Part "scale": what the sandbox costs as it is left running. Creates with
// --state (journal fsynced per change, group commit) against in memory, and
// the partner lists at 100 and at 100,000 stored verifications, with the
// resident memory after 100,000 creates. Each comparison runs two sandboxes
// at once and measures them in interleaved rounds (medians), as "mock" does.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ROOT } from '../paths.mjs';
import { freePort } from '../prism.mjs';
import { ACCESS_TOKEN, AUTH_KEY, cases, combineRounds, CONNECTIONS, createBody, measureCase } from './mock.mjs';
import { MeasureError, builtFile, spawnServer, withLoadPinned } from './proc.mjs';
import { readFileSync } from 'node:fs';

const LARGE = 100_000;
const SMALL = 100;

async function startSandbox(extra = []) {
  const port = await freePort();
  const cli = builtFile(ROOT, 'src', 'cli', 'index.js');
  const server = await spawnServer(process.execPath, [cli, 'sandbox', '--port', String(port), '--auth-key', AUTH_KEY, '--access-token', ACCESS_TOKEN, ...extra], {
    port,
    cwd: ROOT,
    name: 'the sandbox',
    pin: true,
  });
  return { server, url: `http://127.0.0.1:${port}` };
}

/** Creates verifications until `total` are stored, as fast as the sandbox takes them. */
function fill(url, count) {
  return new Promise((resolve, reject) => {
    if (count <= 0) return resolve();
    autocannon({ url, connections: CONNECTIONS, amount: count, requests: [cases.partnerCreate.request()] }, (err, result) => {
      if (err) return reject(err);
      if (result['2xx'] !== count) return reject(new MeasureError(`filling the sandbox: ${result['2xx']} of ${count} creates answered 201 (${JSON.stringify(result.statusCodeStats)})`));
      resolve();
    });
  });
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;

/** The list queries measured at each size: no filter, and one filter each answered by an index. */
function listCases(externalUserId) {
  const get = (query) => ({ method: 'GET', path: `/verifications${query}`, headers: { 'x-auth-key': AUTH_KEY } });
  return {
    all: { label: 'GET /verifications (newest 15)', request: get('') },
    byExternalUserId: { label: 'GET /verifications?externalUserId=… (1 match)', request: get(`?externalUserId=${externalUserId}`) },
    byStatus: { label: 'GET /verifications?status=created (every record)', request: get('?status=created') },
    users: { label: 'GET /users (newest 15)', request: { method: 'GET', path: '/users', headers: { 'x-auth-key': AUTH_KEY } } },
  };
}

/**
 * Measures each server's cases (`caseLists[i]`: name → { label, request })
 * in interleaved rounds, case by case and server by server; answers, per
 * server, each case's medians.
 */
async function interleaved(servers, caseLists, { seconds, warmup, rounds, log }) {
  const samples = servers.map(() => ({}));
  for (let round = 1; round <= rounds; round++) {
    for (const name of Object.keys(caseLists[0])) {
      for (const [i, s] of servers.entries()) {
        const c = caseLists[i][name];
        log(`  round ${round}/${rounds}: ${s.label}: ${c.label}`);
        const figures = await measureCase({ server: s.label, name, url: s.url, request: c.request, pid: s.server.pid, seconds, warmup: round === 1 ? warmup : 0 });
        (samples[i][name] ??= []).push(figures);
      }
    }
  }
  return samples.map((byCase) => Object.fromEntries(Object.entries(byCase).map(([name, rs]) => [name, combineRounds(rs)])));
}

async function runCreates(stateFile, opts) {
  const running = [];
  try {
    const memory = { ...(await startSandbox()), label: 'sandbox in memory' };
    running.push(memory);
    const durable = { ...(await startSandbox(['--state', stateFile])), label: 'sandbox with --state' };
    running.push(durable);
    const create = { partnerCreate: { label: cases.partnerCreate.label, request: cases.partnerCreate.request() } };
    const [inMemory, withState] = await interleaved(running, [create, create], opts);
    return { inMemory: inMemory.partnerCreate, withState: withState.partnerCreate };
  } finally {
    for (const s of running) await s.server.stop();
  }
}

async function runLists(opts) {
  const { log } = opts;
  const running = [];
  try {
    const sizes = {};
    const ids = {};
    for (const size of [SMALL, LARGE]) {
      // Every list answer worked out from the indexes: a kept answer (the
      // answer cache) would measure a lookup, the same at any size.
      const sandbox = { ...(await startSandbox(['--no-answer-cache'])), label: `sandbox with ${size.toLocaleString('en-US')} stored` };
      running.push(sandbox);
      const { url } = sandbox;
      const first = await fetch(`${url}/verifications`, { method: 'POST', headers: { 'x-auth-key': AUTH_KEY, 'content-type': 'application/json' }, body: createBody() });
      ids[size] = (await first.json()).id;
      log(`  filling a sandbox to ${size.toLocaleString('en-US')} verifications`);
      const t0 = performance.now();
      await fill(url, size - 1);
      sizes[size] = { fillSeconds: (performance.now() - t0) / 1000, rss: rssOf(sandbox.server.pid) };
    }
    // Each sandbox is asked for its own first verification's externalUserId (one match in both).
    const detail = await (await fetch(`${running[0].url}/verifications/${ids[SMALL]}`, { headers: { 'x-auth-key': AUTH_KEY } })).json();
    const other = await (await fetch(`${running[1].url}/verifications/${ids[LARGE]}`, { headers: { 'x-auth-key': AUTH_KEY } })).json();
    const figures = await interleaved(running, [listCases(detail.externalUserId), listCases(other.externalUserId)], opts);
    for (const [i, size] of [SMALL, LARGE].entries()) Object.assign(sizes[size], figures[i]);
    return { sizes, labels: Object.fromEntries(Object.entries(listCases('x')).map(([k, v]) => [k, v.label])) };
  } finally {
    for (const s of running) await s.server.stop();
  }
}

export async function benchScale({ seconds, warmup, rounds = 3, log }) {
  const opts = { seconds, warmup, rounds, log };
  const folder = mkdtempSync(path.join(os.tmpdir(), 'bench-state-'));
  try {
    return await withLoadPinned(async () => {
      const creates = await runCreates(path.join(folder, 'state.jsonl'), opts);
      const lists = await runLists(opts);
      return { small: SMALL, large: LARGE, creates, lists };
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
