// Part: `npm run dev`'s edit loop. On a scratch copy of the project (as
// test/integration/dev.test.ts runs it), openapi/partner/paths/verifications.yaml is
// saved the way editors save (an edited copy written beside it and renamed
// over it), and the time runs from that rename to the served partner.html
// showing the edit: the reload event the open page gets, then the page
// fetched as the reloaded browser fetches it. Each save waits for the
// previous one's slow steps (lint, types, compile) to finish, as an edit
// made after looking at the page does; the load average is taken at each.
import { spawn } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyProject } from '../project-copy.mjs';
import { cpuMs, MeasureError, processTree, TICKS_PER_SECOND, track } from './proc.mjs';

const EDITED = path.join('openapi', 'partner', 'paths', 'verifications.yaml');
const LINE = 'description: The created verification, in status `created` and without `updatedAt`.';

/** utime, stime, cutime, cstime of a process in ms; null once it is gone (/proc). */
function cpuTimes(pid) {
  try {
    // Fields after the command name, which may hold spaces and ends with ')'.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1).split(' ');
    return fields.slice(11, 15).map((ticks) => (Number(ticks) * 1000) / TICKS_PER_SECOND);
  } catch {
    return null;
  }
}

/**
 * The CPU time, in ms, of dev itself and of the children it has reaped since
 * `since` (its earlier reading): the tools of a rebuild, which exit before
 * the page is served. Figures the other work of a shared machine does not
 * inflate, as it does the wall time. A mock or sandbox that dev restarts in
 * the meantime is reaped too, with all the CPU of its life: that is taken
 * off. NaN without /proc.
 */
function devCpu(pid, since) {
  for (;;) {
    const gone = [...(since?.children ?? [])].filter(([child]) => !cpuTimes(child));
    const times = cpuTimes(pid);
    // A child reaped between the two readings: read again.
    if (since && [...since.children].filter(([child]) => !cpuTimes(child)).length !== gone.length) continue;
    if (!times) return { self: NaN, tools: NaN, children: new Map() };
    const [utime, stime, cutime, cstime] = times;
    const children = new Map(
      processTree(pid)
        .slice(1)
        .map((child) => [child, cpuMs(child)]),
    );
    const restarted = gone.reduce((sum, [, ms]) => sum + ms, 0);
    return { self: utime + stime, tools: cutime + cstime - restarted, children };
  }
}

/** Resolves with what `check` returns once truthy; a MeasureError after `timeoutMs` or when dev exits. */
async function until(what, check, { dev, output, timeoutMs = 300_000, everyMs = 20 }) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (dev.exitCode !== null || dev.signalCode !== null)
      throw new MeasureError(
        `npm run dev exited (${dev.exitCode ?? dev.signalCode}) before ${what}:\n${output().slice(-3000)}`,
      );
    if (performance.now() > deadline)
      throw new MeasureError(`${what}: not seen within ${timeoutMs / 1000} s:\n${output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function benchDev({ log, rounds = 5 }) {
  const copy = copyProject('vc-bench-dev-');
  let text = '';
  const output = () => text;
  const dev = track(
    spawn(
      process.execPath,
      [
        path.join(copy.dir, 'scripts', 'dev.mjs'),
        '--port',
        '0',
        '--sandbox-port',
        '0',
        '--mock-v2-port',
        '0',
        '--mock-partner-port',
        '0',
      ],
      {
        cwd: copy.dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  dev.stdout.on('data', (d) => (text += d));
  dev.stderr.on('data', (d) => (text += d));
  const opts = { dev, output };
  const count = (pattern) => (text.match(pattern) ?? []).length;
  let events = null;
  try {
    log('  npm run dev on a copy of the project: waiting for its first build');
    await until('dev watching openapi/', () => /watching openapi\//.test(text), {
      ...opts,
      timeoutMs: 600_000,
      everyMs: 200,
    });
    const docsUrl = /docs: (http:\/\/127\.0\.0\.1:\d+)\//.exec(text)[1];

    // The reload channel, as the open page's script listens to it.
    let reloads = 0;
    events = new AbortController();
    const stream = await fetch(`${docsUrl}/__dev/events`, { signal: events.signal });
    (async () => {
      const decoder = new TextDecoder();
      let received = '';
      for await (const chunk of stream.body) {
        received += decoder.decode(chunk, { stream: true });
        reloads = (received.match(/^event: reload$/gm) ?? []).length;
      }
    })().catch(() => {});

    const file = path.join(copy.dir, EDITED);
    const original = readFileSync(file, 'utf8');
    if (!original.includes(LINE))
      throw new MeasureError(`${EDITED} no longer holds "${LINE}"; update scripts/lib/bench/dev.mjs`);
    const saves = [];
    for (let i = 1; i <= rounds; i++) {
      const marker = `(bench save ${i})`;
      const scratch = `${file}.bench-save`;
      writeFileSync(scratch, original.replace(LINE, `${LINE} ${marker}`));
      const [reloadsBefore, rebuildsBefore] = [reloads, count(/\[dev\] rebuilt in /g)];
      const loadAverage = os.loadavg()[0];
      const cpuBefore = devCpu(dev.pid);
      const start = performance.now();
      renameSync(scratch, file);
      await until(`the reload event after save ${i}`, () => reloads > reloadsBefore, opts);
      await until(
        `save ${i} in the served partner.html`,
        async () => (await fetch(`${docsUrl}/partner.html`).then((r) => r.text())).includes(marker),
        { ...opts, everyMs: 50 },
      );
      const ms = performance.now() - start;
      const cpuAfter = devCpu(dev.pid, cpuBefore);
      const cpu = { self: cpuAfter.self - cpuBefore.self, tools: cpuAfter.tools - cpuBefore.tools };
      const line = text.slice(text.lastIndexOf('[dev] docs updated')).split('\n')[0];
      saves.push({ ms, cpuMs: cpu.self + cpu.tools, cpu, loadAverage, devLine: line });
      const s = (v) => (v / 1000).toFixed(2);
      log(
        `  save ${i}: served in ${s(ms)} s (CPU: dev ${s(cpu.self)} s, its tools ${s(cpu.tools)} s) at load average ${loadAverage.toFixed(2)} (${line})`,
      );
      await until(`the slow steps after save ${i}`, () => count(/\[dev\] rebuilt in /g) > rebuildsBefore, {
        ...opts,
        everyMs: 200,
      });
    }
    const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const walls = saves.map((s) => s.ms);
    return {
      file: EDITED,
      saves,
      medianMs: median(walls),
      minMs: Math.min(...walls),
      maxMs: Math.max(...walls),
      medianCpuMs: {
        all: median(saves.map((s) => s.cpuMs)),
        dev: median(saves.map((s) => s.cpu.self)),
        tools: median(saves.map((s) => s.cpu.tools)),
      },
    };
  } finally {
    events?.abort();
    if (dev.exitCode === null && dev.signalCode === null) {
      const exited = new Promise((resolve) => dev.once('exit', resolve));
      dev.kill('SIGTERM');
      await exited;
    }
    copy.remove();
  }
}
