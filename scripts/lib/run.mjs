// @ts-check
// Running the build's tools (Redocly, Spectral, the native TypeScript) as
// child processes: offline, quiet, their output kept for the error message,
// and stopped as a whole when `npm run dev` no longer needs their result.
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './paths.mjs';

// Tools run offline and quietly: no telemetry, no update checks.
const TOOL_ENV = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_UPDATE_NOTIFIER: '1',
};

// A name is a command of node_modules/.bin; a path is run as it is.
const bin = (/** @type {string} */ name) =>
  path.isAbsolute(name) ? name : path.join(ROOT, 'node_modules', '.bin', name);

// An AbortSignal for every tool started inside `toolAbort.run(signal, fn)`:
// `npm run dev` stops a rebuild's slow steps when a newer edit arrives.
export const toolAbort = new AsyncLocalStorage();

// The process groups of the tools that may be stopped and still run. A tool
// that can be stopped leads a group of its own: some are a Node wrapper
// around another program (the native TypeScript's tsc runs its binary as a
// child), and killing the wrapper alone would leave that child writing into
// a folder already removed. Whatever ends this process ends them too.
const groups = new Set();
process.on('exit', () => {
  for (const group of groups) signalGroup(group, 'SIGKILL');
});

/**
 * Sends `signal` to every process of a group; false when none is left.
 * @param {number} group
 * @param {NodeJS.Signals | 0} signal
 */
function signalGroup(group, signal) {
  try {
    process.kill(-group, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ends a tool's whole group and resolves once no process of it is left (SIGKILL after 5 s).
 * @param {number} group
 */
async function endGroup(group) {
  signalGroup(group, 'SIGTERM');
  const killAt = Date.now() + 5_000;
  while (signalGroup(group, 0)) {
    if (Date.now() > killAt) signalGroup(group, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  groups.delete(group);
}

// Runs a tool from node_modules/.bin. Resolves with its output; rejects with
// an error that carries the output when it exits non-zero. Stopped by the
// signal of `toolAbort`, it rejects with an AbortError once every process
// the tool started has ended.
/**
 * @param {string} name
 * @param {string[]} args
 * @param {{ quiet?: boolean }} [options]
 * @returns {Promise<string>}
 */
export function runTool(name, args, { quiet = false } = {}) {
  const signal = toolAbort.getStore();
  const abortError = () =>
    new DOMException(`${path.basename(name)} was stopped: a newer build replaces it`, 'AbortError');
  if (signal?.aborted) return Promise.reject(abortError());
  return new Promise((resolve, reject) => {
    // Only a tool that can be stopped gets a group of its own: one that
    // cannot stays in the terminal's, which Ctrl-C reaches.
    const child = spawn(bin(name), args, { cwd: ROOT, env: TOOL_ENV, detached: Boolean(signal) });
    if (signal && child.pid) groups.add(child.pid);
    /** @type {Promise<void> | null} */
    let stopped = null;
    const onAbort = () => (stopped = child.pid ? endGroup(child.pid) : Promise.resolve());
    signal?.addEventListener('abort', onAbort, { once: true });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new Error(`${path.basename(name)} could not start (${err.message}); run \`npm ci\` first`));
    });
    child.on('close', async (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (stopped) {
        await stopped;
        return reject(abortError());
      }
      groups.delete(child.pid);
      const clean = dropNoise(output);
      if (code === 0) {
        if (!quiet && clean.trim()) process.stdout.write(clean);
        resolve(clean);
      } else {
        reject(new Error(`${name} ${args.join(' ')} failed (exit ${code}):\n${clean}`));
      }
    });
  });
}

// Redocly prints a boxed notice about Node 20 on every run; npm warns about a
// machine-level config key. Neither concerns the project.
/** @param {string} text */
function dropNoise(text) {
  return text
    .split('\n')
    .filter((line) => !/[║╔╚]/.test(line) && !/Unknown user config "nodedir"/.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

// Runs a step's main function and turns a failure into a message and exit 1.
/** @param {() => unknown} step */
export async function main(step) {
  try {
    await step();
  } catch (err) {
    console.error(`error: ${/** @type {Error} */ (err).message}`);
    process.exit(1);
  }
}
