import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './paths.mjs';

// Tools run offline and quietly: no telemetry, no update checks.
export const TOOL_ENV = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_UPDATE_NOTIFIER: '1',
};

// A name is a command of node_modules/.bin; a path is run as it is.
const bin = (name) => (path.isAbsolute(name) ? name : path.join(ROOT, 'node_modules', '.bin', name));

// An AbortSignal for every tool started inside `toolAbort.run(signal, fn)`:
// `npm run dev` stops a rebuild's slow steps when a newer edit arrives.
export const toolAbort = new AsyncLocalStorage();

// Runs a tool from node_modules/.bin. Resolves with its output; rejects with
// an error that carries the output when it exits non-zero.
export function runTool(name, args, { quiet = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin(name), args, { cwd: ROOT, env: TOOL_ENV, signal: toolAbort.getStore() });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (err) =>
      reject(err.name === 'AbortError' ? err : new Error(`${path.basename(name)} could not start (${err.message}); run \`npm ci\` first`)),
    );
    child.on('close', (code) => {
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
function dropNoise(text) {
  return text
    .split('\n')
    .filter((line) => !/[║╔╚]/.test(line) && !/Unknown user config "nodedir"/.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

// Runs a step's main function and turns a failure into a message and exit 1.
export async function main(step) {
  try {
    await step();
  } catch (err) {
    console.error(`error: ${err.message}`);
    process.exit(1);
  }
}
