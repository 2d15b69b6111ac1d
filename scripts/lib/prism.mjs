// Prism, the example-answering mock, as a child process: its document and
// port, starting it and waiting until it listens. `npm run mock`,
// `npm run dev`, the tests' mock servers and the bench start it through here.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { GENERATED, ROOT } from './paths.mjs';

const PRISM = path.join(ROOT, 'node_modules', '.bin', 'prism');
// Every mock listens on loopback only.
const HOST = '127.0.0.1';

/** Listens on `port` (0: one the OS picks) and lets go: the port it got, or false when it is taken. */
const tryListen = (port) =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, HOST, () => {
      const got = server.address().port;
      server.close(() => resolve(got));
    });
  });

/** The bundle a mock of `api` serves: the JSON twin, on which Prism starts 0.7 s of CPU sooner than on the YAML one. */
export const mockDocumentOf = (apiName) => path.join(GENERATED, 'openapi', `${apiName}.json`);

/**
 * The port of an API's mock: its environment variable (e.g. MOCK_V2_PORT),
 * else its default. 0 asks for any free port (startPrism picks one).
 */
export function mockPortOf(api) {
  const raw = process.env[api.mockPortEnv];
  if (raw === undefined || raw === '') return api.mockPort;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(
      `${api.mockPortEnv}=${raw} is not a port number (0-65535; 0 for any free port); set it to one and start again`,
    );
  return port;
}

/** Whether something accepts connections on the port. */
export const accepts = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, HOST);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * A free loopback port chosen by the OS.
 * @returns {Promise<number>}
 */
export async function freePort() {
  const port = await tryListen(0);
  if (port === false) throw new Error(`no free port on ${HOST} to start a mock on; free one and start again`);
  return port;
}

/**
 * Starts `prism mock` on a bundled document and resolves once it accepts
 * connections, with its URL and port. Port 0 means any free port. Rejects
 * with a message that says what to do when the port is taken or Prism exits
 * early. `signal` stops a start under way (Prism is killed).
 * @param {{ document: string, port: number, logLevel?: string, timeoutMs?: number, signal?: AbortSignal }} options
 */
export async function startPrism({ document, port, logLevel = 'error', timeoutMs = 30000, signal }) {
  // Prism prints the address it listens on only at log levels that also
  // print every request, so for port 0 a free port is chosen here and handed
  // to it. Another program can take that port before Prism binds it (Prism
  // then exits): a few tries with fresh ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startPrismOn({ document, port: port || (await freePort()), logLevel, timeoutMs, signal });
    } catch (err) {
      if (port !== 0 || attempt === 3 || !err.portTaken || signal?.aborted) throw err;
    }
  }
}

async function startPrismOn({ document, port, logLevel, timeoutMs, signal }) {
  const taken = `port ${port} on ${HOST} is in use; stop what runs there or choose another port`;
  if (!(await tryListen(port))) throw Object.assign(new Error(taken), { portTaken: true });
  signal?.throwIfAborted();
  const child = spawn(PRISM, ['mock', '-h', HOST, '-p', String(port), '-v', logLevel, document], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  const onAbort = () => child.kill('SIGTERM');
  signal?.addEventListener('abort', onAbort, { once: true });
  const exited = new Promise((resolve) => child.once('exit', (code, sig) => resolve({ code, signal: sig })));
  exited.then(() => signal?.removeEventListener('abort', onAbort));
  // Prism prints its start-up banner whatever the log level; drop it, and
  // everything when the caller asked for silence. What it prints while
  // starting is kept, to tell a taken port from other failures.
  let output = '';
  let starting = true;
  const forward = (to) => (chunk) => {
    if (starting) output += chunk;
    const text = String(chunk).replace(/^.*Starting Prism.*$\n?/gm, '');
    if (logLevel !== 'silent' && text.trim()) to.write(text);
  };
  child.stdout.on('data', forward(process.stdout));
  child.stderr.on('data', forward(process.stderr));
  const deadline = Date.now() + timeoutMs;
  while (!(await accepts(port))) {
    if (!running()) {
      const why = signal?.aborted
        ? 'stopped while starting'
        : `exited before it listened (${child.exitCode ?? child.signalCode})`;
      throw Object.assign(new Error(`Prism ${why} for ${document}`), { portTaken: /EADDRINUSE/.test(output) });
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`Prism did not listen on ${HOST}:${port} within ${timeoutMs / 1000}s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  starting = false;
  return {
    url: `http://${HOST}:${port}`,
    port,
    pid: child.pid,
    exited,
    /** Whether the process still runs. */
    running,
    stop: async () => {
      if (running()) child.kill('SIGTERM');
      await exited;
    },
  };
}
