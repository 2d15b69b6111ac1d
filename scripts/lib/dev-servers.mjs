// The servers `npm run dev` keeps running beside its docs: the Prism mocks and
// the sandbox, each keeping across restarts the port printed at its first
// start. Nothing starts once `signal` (dev stopping) has fired.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { MOCKED_APIS } from './apis.mjs';
import { ROOT } from './paths.mjs';
import { mockDocumentOf, startPrism } from './prism.mjs';

// Every process started here, by pid. Dev stops them itself; this is for an
// exit it did not plan (a crash, a second Ctrl-C), which must not leave a
// mock or the sandbox holding its port.
const alive = new Set();
process.on('exit', () => {
  for (const pid of alive) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});
const track = (pid, exited) => {
  alive.add(pid);
  exited.then(() => alive.delete(pid));
};

/**
 * The Prism mocks; `start(names)` starts those not running. A running mock
 * follows its bundle by itself: Prism reloads the document it serves (a new
 * Prism process would cost seconds of CPU per save).
 */
export function devMocks({ ports, signal, log, warn }) {
  const running = new Map();
  async function start(api) {
    if (signal.aborted || running.get(api.name)?.running()) return;
    try {
      // Prism takes seconds to start, many more on a busy machine.
      const document = mockDocumentOf(api.name);
      const mock = await startPrism({ document, port: ports[api.name], timeoutMs: 120_000, signal });
      track(mock.pid, mock.exited);
      running.set(api.name, mock);
      // Its address stays the one printed.
      ports[api.name] = mock.port;
      log(`${api.title} mock: ${mock.url}`);
    } catch (err) {
      if (signal.aborted) return;
      warn(`the ${api.name} mock did not start (${err.message}); it is tried again after the next edit of its sources`);
    }
  }
  // One start at a time, so two edits never start two mocks on one port.
  let queue = Promise.resolve();
  const enqueue = (fn) => (queue = queue.then(fn));
  return {
    start: (names = MOCKED_APIS.map((api) => api.name)) =>
      enqueue(() => Promise.all(MOCKED_APIS.filter((api) => names.includes(api.name)).map(start))),
    // A start under way ends at once: `signal` has killed its Prism.
    stop: () => enqueue(() => Promise.all([...running.values()].map((mock) => mock.stop()))),
  };
}

/** The sandbox from the compiled package; a restart keeps its port and credentials. */
export function devSandbox({ out, port, signal, log, warn }) {
  let child = null;
  let args = ['--port', String(port)];
  async function start() {
    if (signal.aborted) return;
    const cli = path.join(out, 'lib', 'src', 'cli', 'index.js');
    child = spawn(process.execPath, [cli, 'sandbox', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const me = child;
    track(me.pid, new Promise((resolve) => me.once('exit', resolve)));
    let text = '';
    let lastError = '';
    me.stderr.on('data', (d) => {
      lastError = String(d).trim().split('\n').at(-1) ?? lastError;
      process.stderr.write(`[sandbox] ${d}`);
    });
    const started = await new Promise((resolve) => {
      me.stdout.on('data', (d) => {
        text += d;
        if (/Ctrl-C stops it/.test(text)) resolve(true);
      });
      me.once('close', () => resolve(false));
    });
    if (signal.aborted) return;
    if (!started)
      return warn(
        `the sandbox did not start (${lastError || text.trim() || 'no output'}); it is tried again after the next rebuild` +
          (/port \d+ is in use/.test(lastError)
            ? '; npm run dev takes its port from --sandbox-port or SANDBOX_PORT'
            : ''),
      );
    const url = /listening on (\S+)/.exec(text)[1];
    const key = /X-Auth-Key: ([^\s,]+)/.exec(text)[1];
    const token = /Bearer (\S+)/.exec(text)[1];
    args = ['--port', new URL(url).port, '--auth-key', key, '--access-token', token];
    log(`sandbox: ${url}  X-Auth-Key: ${key}  Bearer ${token}  (state resets on each rebuild)`);
  }
  async function stop() {
    const me = child;
    child = null;
    if (!me || me.exitCode !== null || me.signalCode !== null) return;
    const exited = new Promise((resolve) => me.once('exit', resolve));
    me.kill('SIGTERM');
    await exited;
  }
  const running = () => child !== null && child.exitCode === null && child.signalCode === null;
  return { start, stop, running, restart: () => stop().then(start) };
}
