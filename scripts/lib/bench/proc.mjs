// Child processes for the benchmark: their process tree, its memory, and
// waiting for a port to answer. Linux /proc first, `ps` when /proc is absent.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accepts } from '../prism.mjs';

/** A measurement that could not be taken; the benchmark exits non-zero on it. */
export class MeasureError extends Error {}

/** The compiled package code the benchmark loads or runs; throws when a build has not made it. */
export function builtFile(root, ...parts) {
  const file = path.join(root, 'generated', 'lib', ...parts);
  if (!existsSync(file))
    throw new MeasureError(
      `${path.relative(root, file)} is missing; run \`npm run build\` first (or wait for a running build to finish)`,
    );
  return file;
}

const started = new Set();
// Whatever the benchmark started dies with it, even on Ctrl-C or a crash.
process.on('exit', () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

/** Remembers a child so that it is killed if the benchmark stops early. */
export function track(child) {
  started.add(child);
  child.once('exit', () => started.delete(child));
  return child;
}

const hasProc = (() => {
  try {
    readFileSync('/proc/self/status');
    return true;
  } catch {
    return false;
  }
})();

function childrenOf(pid) {
  if (hasProc) {
    try {
      return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
        readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number),
      );
    } catch {
      return [];
    }
  }
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** The pid and every descendant. */
export function processTree(pid) {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...childrenOf(all[i]));
  return all;
}

function commandLine(pid) {
  try {
    return hasProc
      ? readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ')
      : execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

export const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * User + system CPU time, in ms, the process tree of `pid` has used so far
 * (/proc/PID/stat utime and stime; `ps` cputime when /proc is absent).
 */
export function cpuMs(pid) {
  let ticks = 0;
  for (const p of processTree(pid)) {
    try {
      if (hasProc) {
        // Fields after the command name, which may hold spaces and ends with ')'.
        const rest = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ').at(-1).split(' ');
        ticks += Number(rest[11]) + Number(rest[12]);
      } else {
        const [m, sec] = execFileSync('ps', ['-o', 'time=', '-p', String(p)], { encoding: 'utf8' })
          .trim()
          .split(':')
          .slice(-2)
          .map(Number);
        ticks += (m * 60 + sec) * TICKS_PER_SECOND;
      }
    } catch {
      // a process that ended between listing and reading
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** { rss, hwm } in bytes of one process; hwm (peak) only from /proc. */
function memoryOf(pid) {
  try {
    if (hasProc) {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
      return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
    }
    const rss = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024;
    return { rss, hwm: NaN };
  } catch {
    return { rss: NaN, hwm: NaN };
  }
}

/**
 * Polls the memory of a process tree until stopped. `peak()` is the largest
 * sum of the tree's RSS seen, or the sum of the kernel's per-process peaks
 * (VmHWM) when that is larger: a poll can miss a short spike, VmHWM cannot.
 */
export function watchMemory(pid, everyMs = 100) {
  let sampledPeak = 0;
  const hwm = new Map();
  const commands = new Map();
  const sample = () => {
    let sum = 0;
    for (const p of processTree(pid)) {
      const m = memoryOf(p);
      if (Number.isFinite(m.rss)) sum += m.rss;
      if (Number.isFinite(m.hwm)) hwm.set(p, Math.max(hwm.get(p) ?? 0, m.hwm));
      if (!commands.has(p)) commands.set(p, commandLine(p));
    }
    sampledPeak = Math.max(sampledPeak, sum);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    stop() {
      sample();
      clearInterval(timer);
      const hwmSum = [...hwm.values()].reduce((a, b) => a + b, 0);
      return {
        peak: Math.max(sampledPeak, hwmSum),
        sampledPeak,
        hwmSum,
        processes: [...commands.entries()].map(([p, cmd]) => ({ pid: p, cmd })),
      };
    },
  };
}

/**
 * Spawns a server and resolves when its port accepts connections, with the
 * time from spawn to that moment (polled every `pollMs`).
 */
export async function spawnServer(
  command,
  args,
  { port, cwd, env, timeoutMs = 30000, pollMs = 10, name = command, stdin = null, pin = false },
) {
  const start = performance.now();
  // Pinned from its first instruction: taskset execs the server (same pid) on the server CPU.
  const [file, argv] = pin && pinning.pinned ? ['taskset', ['-c', pinning.server, command, ...args]] : [command, args];
  const child = track(spawn(file, argv, { cwd, env, stdio: [stdin === null ? 'ignore' : 'pipe', 'pipe', 'pipe'] }));
  if (stdin !== null) child.stdin.end(stdin);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let early = null;
  exited.then((r) => (early = r));
  while (!(await accepts(port))) {
    if (early)
      throw new MeasureError(`${name} exited before it listened (${early.code ?? early.signal}):\n${output.trim()}`);
    if (performance.now() - start > timeoutMs) {
      child.kill('SIGTERM');
      throw new MeasureError(`${name} did not listen on port ${port} within ${timeoutMs / 1000}s`);
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  const startupMs = performance.now() - start;
  return {
    child,
    pid: child.pid,
    startupMs,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The direct child of this process whose command line contains every given word. */
export function findChild(...words) {
  return processTree(process.pid)
    .slice(1)
    .find((pid) => {
      const cmd = commandLine(pid);
      return words.every((w) => cmd.includes(w));
    });
}

/** Runs a command to completion; resolves with its output, exit code and wall time. Never rejects on exit code. */
export function runCommand(command, args, { cwd, env, timeoutMs = 120000 } = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = track(spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new MeasureError(`${command} ${args.join(' ')} did not finish within ${timeoutMs / 1000}s`));
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new MeasureError(`${command} could not start: ${err.message}`));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - start });
    });
  });
}

/**
 * Load and servers on separate CPUs: on Linux with two CPUs or more and
 * `taskset`, the benchmark (and its load generator, autocannon, which runs
 * in this process) keeps CPU 0 and each measured server gets CPU 1, so a
 * server's CPU time is not inflated by fighting the load generator for one
 * core, and every server meets the same conditions. Elsewhere nothing is
 * pinned and the report says so.
 */
export const pinning = (() => {
  if (process.platform !== 'linux' || os.cpus().length < 2) return { pinned: false, why: `${os.cpus().length} CPU` };
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
  } catch {
    return { pinned: false, why: 'no taskset' };
  }
  return { pinned: true, load: '0', server: '1', all: `0-${os.cpus().length - 1}` };
})();

/** Sets the CPUs of every thread of a process (and of the threads it makes later). */
function setCpus(pid, cpus) {
  for (const p of processTree(pid)) execFileSync('taskset', ['-a', '-p', '-c', cpus, String(p)], { stdio: 'ignore' });
}

/** Runs `fn` with this process on the load CPU; all CPUs again afterwards. */
export async function withLoadPinned(fn) {
  if (!pinning.pinned) return fn();
  setCpus(process.pid, pinning.load);
  try {
    return await fn();
  } finally {
    execFileSync('taskset', ['-a', '-p', '-c', pinning.all, String(process.pid)], { stdio: 'ignore' });
  }
}

/** Moves a running server (Prism, started elsewhere) to the server CPU. */
export function pinServer(pid) {
  if (pinning.pinned) setCpus(pid, pinning.server);
}
