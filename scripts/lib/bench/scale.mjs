// Part "scale": the sandbox left running, against Prism in the same run. A
// filtered, paged list on a sandbox holding 10,000 verifications against one
// Prism GET (server CPU per request, interleaved rounds, medians, as "mock"
// measures), the resident memory once the same sandbox holds 100,000,
// creates with --state against in memory, and a restart of a --state file
// holding 20,000 verifications after kill -9.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  cases,
  combineRounds,
  createOne,
  fill,
  measureCase,
  startPrismServer,
  startSandboxServer,
  AUTH_KEY,
} from './mock.mjs';
import { MeasureError, withLoadPinned } from './proc.mjs';

const LIST_AT = 10_000;
const RSS_AT = 100_000;
const RESTART_AT = 20_000;

const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;
const stored = async (url) =>
  (await (await fetch(`${url}/verifications?limit=0`, { headers: { 'x-auth-key': AUTH_KEY } })).json()).count;

/** Measures `plan` ([label, server, request]) in interleaved rounds; answers each entry's medians, by label. */
async function interleaved(plan, { seconds, warmup, rounds, log }) {
  const samples = {};
  for (let round = 1; round <= rounds; round++) {
    for (const [label, server, request] of plan) {
      log(`  round ${round}/${rounds}: ${label}`);
      const figures = await measureCase({
        server: server.name,
        name: label,
        url: server.url,
        request: request(),
        pid: server.pid,
        seconds,
        warmup: round === 1 ? warmup : 0,
      });
      samples[label] ??= [];
      samples[label].push(figures);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([label, rs]) => [label, combineRounds(rs)]));
}

/** The list at LIST_AT stored against one Prism GET; then the same sandbox filled to RSS_AT for its RSS. */
async function listsAndMemory(opts) {
  const running = [];
  try {
    const prism = await startPrismServer('partner');
    running.push(prism);
    const sandbox = {
      ...(await startSandboxServer()),
      name: `the sandbox with ${LIST_AT.toLocaleString('en-US')} stored`,
    };
    running.push(sandbox);
    opts.log(`  filling a sandbox to ${LIST_AT.toLocaleString('en-US')} verifications`);
    await createOne(sandbox.url);
    await fill(sandbox.url, LIST_AT - 1);
    const figures = await interleaved(
      [
        ['Prism GET', prism, () => cases.partnerGet.request(randomUUID())],
        ['sandbox list', sandbox, () => cases.partnerList.request()],
      ],
      opts,
    );
    const rssAtList = rssOf(sandbox.pid);
    opts.log(`  filling the same sandbox to ${RSS_AT.toLocaleString('en-US')} verifications`);
    const t0 = performance.now();
    await fill(sandbox.url, RSS_AT - LIST_AT);
    const fillSeconds = (performance.now() - t0) / 1000;
    if ((await stored(sandbox.url)) !== RSS_AT)
      throw new MeasureError(`the sandbox does not hold ${RSS_AT} verifications after filling`);
    return {
      prismGet: figures['Prism GET'],
      list: figures['sandbox list'],
      listLabel: cases.partnerList.label,
      rssAtList,
      rss: rssOf(sandbox.pid),
      fillSeconds,
    };
  } finally {
    for (const s of running) await s.stop();
  }
}

/** Creates in memory and with --state, interleaved; then a fresh --state sandbox filled to RESTART_AT, killed with SIGKILL and started again. */
async function durability(stateFile, opts) {
  const running = [];
  try {
    const memory = { ...(await startSandboxServer()), name: 'sandbox in memory' };
    running.push(memory);
    let durable = { ...(await startSandboxServer(['--state', stateFile])), name: 'sandbox with --state' };
    running.push(durable);
    const create = () => cases.partnerCreate.request();
    const figures = await interleaved(
      [
        [memory.name, memory, create],
        [durable.name, durable, create],
      ],
      opts,
    );
    // The restart is measured at RESTART_AT records exactly: on a fresh state
    // file, since the timed creates above may have stored more.
    await durable.stop();
    durable.memory.stop();
    durable = {
      ...(await startSandboxServer(['--state', `${stateFile}.restart`])),
      name: 'sandbox with --state, filled',
    };
    running.push(durable);
    opts.log(
      `  filling a fresh --state sandbox to ${RESTART_AT.toLocaleString('en-US')} verifications, then kill -9 and a restart`,
    );
    await fill(durable.url, RESTART_AT - (await stored(durable.url)));
    process.kill(durable.pid, 'SIGKILL');
    await durable.stop();
    durable.memory.stop();
    durable = {
      ...(await startSandboxServer(['--state', `${stateFile}.restart`])),
      name: 'sandbox with --state, restarted',
    };
    running.push(durable);
    const after = await stored(durable.url);
    return {
      inMemory: figures[memory.name],
      withState: figures['sandbox with --state'],
      restart: { records: RESTART_AT, startupMs: durable.startupMs, held: after },
    };
  } finally {
    for (const s of running) await s.stop();
  }
}

export async function benchScale({ seconds, warmup, rounds = 3, log }) {
  const opts = { seconds, warmup, rounds, log };
  const folder = mkdtempSync(path.join(os.tmpdir(), 'bench-state-'));
  try {
    return await withLoadPinned(async () => {
      const lists = await listsAndMemory(opts);
      const creates = await durability(path.join(folder, 'state.jsonl'), opts);
      return { listAt: LIST_AT, rssAt: RSS_AT, lists, creates };
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
