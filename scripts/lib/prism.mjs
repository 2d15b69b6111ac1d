import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from './paths.mjs';

const PRISM = path.join(ROOT, 'node_modules', '.bin', 'prism');

const portFree = (port, host) =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });

/**
 * The bundle a mock of `api` serves, below an output root (`generated/` by
 * default): the JSON twin, on which Prism starts 0.7 s of CPU sooner than on
 * the YAML one.
 */
export const mockDocumentOf = (apiName, out = path.join(ROOT, 'generated')) => path.join(out, 'openapi', `${apiName}.json`);

/** The port of an API's mock: its environment variable (e.g. MOCK_V2_PORT), else its default. */
export function mockPortOf(api, env = process.env) {
  const raw = env[api.mockPortEnv];
  if (raw === undefined || raw === '') return api.mockPort;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${api.mockPortEnv}=${raw} is not a port number (1-65535)`);
  }
  return port;
}

/** Whether something accepts connections on the port. */
export const accepts = (port, host = '127.0.0.1') =>
  new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** A free loopback port chosen by the OS. */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `prism mock` on a bundled document and resolves once it accepts
 * connections. Rejects with a message that says what to do when the port is
 * taken or Prism exits early.
 */
export async function startPrism({ document, port, host = '127.0.0.1', logLevel = 'error', timeoutMs = 30000 }) {
  if (!(await portFree(port, host))) {
    throw new Error(`port ${port} on ${host} is in use; stop what runs there or choose another port`);
  }
  const child = spawn(PRISM, ['mock', '-h', host, '-p', String(port), '-v', logLevel, document], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Prism prints its start-up banner whatever the log level; drop it, and
  // everything when the caller asked for silence.
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    from.on('data', (chunk) => {
      if (logLevel === 'silent') return;
      const text = String(chunk)
        .split('\n')
        .filter((line) => !/Starting Prism/.test(line))
        .join('\n');
      if (text.trim()) to.write(text);
    });
  }
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + timeoutMs;
  let early = null;
  exited.then((result) => (early = result));
  while (!(await accepts(port, host))) {
    if (early) throw new Error(`Prism exited before it listened (${early.code ?? early.signal}) for ${document}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`Prism did not listen on ${host}:${port} within ${timeoutMs / 1000}s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://${host}:${port}`,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
