// The servers `npm run dev` keeps running beside its docs: one Prism mock per
// mocked API and the sandbox from the compiled package. Each keeps the port
// it got at its first start across restarts, so an address printed once
// stays right. Nothing starts once `signal` (dev stopping) has fired, a start
// under way is ended by it, and `stop()` ends what runs.
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
 * The Prism mocks. `ports` maps each mocked API's name to the port asked for
 * (0: any free one). A running mock follows its bundle by itself: Prism
 * watches the document it serves and reloads it when it changes, in its own
 * process (a new Prism process would cost seconds of CPU per save).
 * `follow(names)` starts the named mocks that are not running (one that
 * failed to start, or stopped); `restart(names)` starts the named mocks
 * again, which then surely serve their bundle as it is now (after a build
 * handed over by `npm run build`, the one time that is worth Prism's start).
 */
export function devMocks({ out, ports, signal, log, warn }) {
  const running = new Map();
  const kept = new Map();
  const startOn = (api, port) =>
    startPrism({ document: mockDocumentOf(api.name, out), port, timeoutMs: 120_000, signal });
  async function start(api) {
    if (signal.aborted) return;
    const asked = ports[api.name];
    try {
      let mock;
      try {
        // Prism takes seconds to start, many more on a busy machine.
        mock = await startOn(api, kept.get(api.name) ?? asked);
      } catch (err) {
        // Any free port was asked for: the one it had is taken now, so another will do.
        if (asked !== 0 || !kept.has(api.name) || !err.portTaken || signal.aborted) throw err;
        mock = await startOn(api, 0);
      }
      track(mock.pid, mock.exited);
      running.set(api.name, mock);
      kept.set(api.name, mock.port);
      log(`${api.title} mock: ${mock.url}`);
    } catch (err) {
      if (signal.aborted) return;
      warn(`the ${api.name} mock did not start (${err.message}); it is tried again after the next edit of its sources`);
    }
  }
  // One start or restart at a time, so two edits never start two mocks on one port.
  let queue = Promise.resolve();
  const startIfStopped = async (api) => {
    const mock = running.get(api.name);
    if (mock?.running()) return;
    running.delete(api.name);
    await start(api);
  };
  const restartOne = async (api) => {
    await running.get(api.name)?.stop();
    running.delete(api.name);
    await start(api);
  };
  const enqueue = (fn) => (queue = queue.then(fn));
  return {
    start: () => enqueue(() => Promise.all(MOCKED_APIS.map(start))),
    follow: (names) =>
      enqueue(() => Promise.all(MOCKED_APIS.filter((api) => names.includes(api.name)).map(startIfStopped))),
    restart: (names) =>
      enqueue(() => Promise.all(MOCKED_APIS.filter((api) => names.includes(api.name)).map(restartOne))),
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
    me.stderr.on('data', (d) => process.stderr.write(`[sandbox] ${d}`));
    const started = await new Promise((resolve) => {
      me.stdout.on('data', (d) => {
        text += d;
        if (/Ctrl-C stops it/.test(text)) resolve(true);
      });
      me.once('exit', () => resolve(false));
    });
    if (signal.aborted) return;
    if (!started)
      return warn(
        `the sandbox did not start (${text.trim() || 'no output'}); it is tried again after the next rebuild`,
      );
    const url = /listening on (\S+)/.exec(text)[1];
    const key = /X-Auth-Key: (\S+)/.exec(text)[1];
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
  return { start, stop, restart: () => stop().then(start) };
}
