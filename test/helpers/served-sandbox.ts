// The local sandbox as the behaviour tests drive it over a port: one
// served sandbox per file (closed after its tests, having sent no answer
// outside the documents), JSON calls carrying the partner's key, a
// loopback webhook receiver whose answer each test may set, and the
// sandbox command in a child process.
import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import type { SandboxFetch } from '../../src/sandbox/fetch.js';
import { serveSandbox } from '../../src/sandbox/server.js';
import type { Json } from './openapi.js';

export type ServeOptions = NonNullable<Parameters<typeof serveSandbox>[0]>;
/** A sandbox serveSandbox started. */
export type Sandbox = Awaited<ReturnType<typeof serveSandbox>>;

/** `method target` at `base` with a JSON Content-Type and `key` as X-Auth-Key; a string body goes as it is, any other as JSON. */
export async function send(
  base: string,
  key: string,
  method: string,
  target: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}${target}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-auth-key': key, ...headers },
    body: body === undefined || typeof body === 'string' ? body : JSON.stringify(body),
  });
  return answerOf(res);
}

/** The status, text, JSON body (undefined when empty) and headers of an answer. */
async function answerOf(res: Response) {
  const text = await res.text();
  const body: Json = text ? JSON.parse(text) : undefined;
  return { status: res.status, text, body, headers: res.headers };
}

/** Calls through a fetch handler (createSandboxFetch) carrying its key, its v2 token and a JSON Content-Type. */
export function fetchCalls(sandbox: SandboxFetch) {
  return async (method: string, target: string, body?: string) => {
    const headers = {
      'x-auth-key': sandbox.authKey,
      authorization: `Bearer ${sandbox.accessToken}`,
      'content-type': 'application/json',
    };
    return answerOf(await sandbox.fetch(new Request(`${sandbox.url}${target}`, { method, body, headers })));
  };
}

/** Registers the file's sandbox (validating its answers) and answers it, with calls carrying the key active now. */
export function useServedSandbox(options: ServeOptions = {}) {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await serveSandbox({ port: 0, validateResponses: true, ...options });
  });
  afterAll(async () => {
    await sandbox.close();
    expect(sandbox.violations).toEqual([]);
  });
  const call = (method: string, target: string, body?: unknown, headers?: Record<string, string>) =>
    send(sandbox.url, sandbox.partner.activeAuthKey(), method, target, body, headers);
  return {
    get sandbox() {
      return sandbox;
    },
    get port() {
      return Number(new URL(sandbox.url).port);
    },
    call,
    /** A POST to the control API; without a body it still carries the JSON type (S16). */
    control: (path: string, body?: unknown) => call('POST', `/_sandbox${path}`, body),
  };
}

/** What a receiver got: the event, and which attempt of its eventId it was. */
type Arrival = { event: Json; attempt: number };

/**
 * A webhook receiver on a loopback port. `answer` gives the status for each
 * arrival (200 when it gives none; it may also answer `res` itself, later).
 */
export async function startReceiver(answer: (arrival: Arrival, res: ServerResponse) => number | undefined = () => 200) {
  const arrivals: Arrival[] = [];
  const attempts = new Map<string, number>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const event = JSON.parse(body);
      const attempt = (attempts.get(event.eventId) ?? 0) + 1;
      attempts.set(event.eventId, attempt);
      const arrival = { event, attempt };
      arrivals.push(arrival);
      const status = answer(arrival, res);
      if (typeof status === 'number') res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  };
  return { arrivals, attempts, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, close };
}

/** The package's command line as built. */
export const CLI_BIN = path.join(ROOT, 'generated', 'lib', 'src', 'cli', 'index.js');

/**
 * `verification-contracts sandbox --port 0 ARGS` in a child process, once its
 * banner (or an error) is out: what it printed, its URL, and a stop by SIGINT
 * answering the exit code.
 */
export async function startCommand(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const child = spawn(process.execPath, [CLI_BIN, 'sandbox', '--port', '0', ...args], options);
  const printed = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (printed.stdout += d));
  child.stderr.on('data', (d) => (printed.stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await expect.poll(() => printed.stdout + printed.stderr, { timeout: 20_000 }).toMatch(/Ctrl-C stops it|error:/);
  const url = /Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(printed.stdout)?.[1] ?? '';
  const stop = async () => {
    child.kill('SIGINT');
    return await exited;
  };
  return { child, printed, url, stop, exited };
}
