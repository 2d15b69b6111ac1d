// Part "scale": what the sandbox costs as it is left running. Creates with
// --state (journal fsynced per change, group commit) against in memory, and
// the partner lists at 100 and at 100,000 stored verifications, with the
// resident memory after 100,000 creates.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ROOT } from '../paths.mjs';
import { freePort } from '../prism.mjs';
import { ACCESS_TOKEN, AUTH_KEY, cases, CONNECTIONS, createBody, measureCase } from './mock.mjs';
import { MeasureError, builtFile, spawnServer } from './proc.mjs';
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

async function runCreates(stateFile, opts, log) {
  const { server, url } = await startSandbox(stateFile ? ['--state', stateFile] : []);
  try {
    log(`  sandbox ${stateFile ? 'with --state' : 'in memory'}: ${cases.partnerCreate.label}`);
    return await measureCase({ server: 'the sandbox', name: 'partnerCreate', url, request: cases.partnerCreate.request(), pid: server.pid, ...opts });
  } finally {
    await server.stop();
  }
}

async function runLists(opts, log) {
  const { server, url } = await startSandbox();
  const sizes = {};
  try {
    const first = await fetch(`${url}/verifications`, { method: 'POST', headers: { 'x-auth-key': AUTH_KEY, 'content-type': 'application/json' }, body: createBody() });
    const { id } = await first.json();
    const detail = await (await fetch(`${url}/verifications/${id}`, { headers: { 'x-auth-key': AUTH_KEY } })).json();
    const queries = listCases(detail.externalUserId);
    let stored = 1;
    for (const size of [SMALL, LARGE]) {
      log(`  filling the sandbox to ${size.toLocaleString('en-US')} verifications`);
      const t0 = performance.now();
      await fill(url, size - stored);
      const fillSeconds = (performance.now() - t0) / 1000;
      stored = size;
      const results = { fillSeconds, rss: rssOf(server.pid) };
      for (const [name, c] of Object.entries(queries)) {
        log(`  ${size.toLocaleString('en-US')} stored: ${c.label}`);
        results[name] = await measureCase({ server: 'the sandbox', name, url, request: c.request, pid: server.pid, ...opts });
      }
      sizes[size] = results;
    }
  } finally {
    await server.stop();
  }
  return { sizes, labels: Object.fromEntries(Object.entries(listCases('x')).map(([k, v]) => [k, v.label])) };
}

export async function benchScale({ seconds, warmup, log }) {
  const opts = { seconds, warmup };
  const folder = mkdtempSync(path.join(os.tmpdir(), 'bench-state-'));
  try {
    const inMemory = await runCreates(null, opts, log);
    const withState = await runCreates(path.join(folder, 'state.jsonl'), opts, log);
    const lists = await runLists(opts, log);
    return { small: SMALL, large: LARGE, creates: { inMemory, withState }, lists };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
