// @ts-check
// Running the build's tools (Redocly, Spectral, the native TypeScript) as
// child processes: offline, quiet, their output kept for the error message.
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import os from 'node:os';
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

// Tools started inside `inBackground(fn)` run at the lowest CPU priority:
// `npm run dev`'s lints and compile then leave the cores to the next save's
// bundle and page, which are what the author waits for.
const background = new AsyncLocalStorage();
/** @type {<T>(fn: () => T) => T} */
export const inBackground = (fn) => background.run(true, fn);

/** @type {(name: string, args: string[], options?: { quiet?: boolean }) => Promise<string>} Rejects with the output on a non-zero exit. */
export function runTool(name, args, { quiet = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin(name), args, { cwd: ROOT, env: TOOL_ENV });
    try {
      if (background.getStore() && child.pid) os.setPriority(child.pid, 19);
    } catch {
      // ended already
    }
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (err) =>
      reject(new Error(`${path.basename(name)} could not start (${err.message}); run \`npm ci\` first`)),
    );
    child.on('close', (code) => {
      const clean = dropNoise(output);
      if (code !== 0) return reject(new Error(`${name} ${args.join(' ')} failed (exit ${code}):\n${clean}`));
      if (!quiet && clean.trim()) process.stdout.write(clean);
      resolve(clean);
    });
  });
}

// Redocly prints a boxed notice about Node 20 on every run; npm warns about a
// machine-level config key. Neither concerns the project.
function dropNoise(/** @type {string} */ text) {
  return text
    .split('\n')
    .filter((line) => !/[║╔╚]/.test(line) && !/Unknown user config "nodedir"/.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

/** @param {() => unknown} step Run, a failure turned into a message and exit 1. */
export async function main(step) {
  try {
    await step();
  } catch (err) {
    console.error(`error: ${/** @type {Error} */ (err).message}`);
    process.exit(1);
  }
}
