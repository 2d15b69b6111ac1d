// The sandbox on node:http (`serveSandbox`, behind the command and `startSandbox`), with what only a port needs: the
// guard always on, slow-client bounds, --state, --fault. Malformed HTTP gets Node's own answer.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { requestValidators } from '../../generated/validators/sandbox-contract.js';
import { ajvCompiler } from '../contract/ajv-compiler.js';
import { packageHomepage, readBundledDocument } from '../package-files.js';
import { createSandboxCore, type CoreOptions, type SandboxCore } from './core.js';
import type { DoorAnswer, DoorRequest } from './http/door.js';
import { withFaults, type FaultSpec } from './http/faults.js';
import { webhookUrlRefusal } from './partner/api.js';
import { readStateFile, StateFile } from './persistence/state-file.js';
import { COMMAND_PORT, DEFAULT_HOST, type ListenSettings, type SandboxSettings } from './options.js';

/** The declared options, the port door's own, and those of the command and this package's tests. */
export interface SandboxOptions
  extends SandboxSettings,
    ListenSettings,
    Pick<CoreOptions, 'validateResponses' | 'newId' | 'onAuthKeyChange'> {
  /** Departures from the contract to commit on purpose (see http/faults.ts), for proving a conformance run notices them. */
  faults?: FaultSpec[];
  /** A connection that has not sent its whole headers in this time gets Node's 408 and is closed (default 10 s; a whole request, 30 s). */
  headersTimeoutMs?: number;
}

/** A node:http request as the core reads it. */
function doorRequest(req: IncomingMessage): DoorRequest {
  const headers = req.headers;
  return {
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    origin: `http://${headers.host ?? ''}`,
    // Every value joined as the Fetch API joins them (Node keeps only the first of some), so both doors answer alike.
    header: (name) => req.headersDistinct[name]?.join(', '),
    hasBody: announcesBody(req),
    body: (limit) => readBody(req, limit),
  };
}

const announcesBody = ({ headers }: IncomingMessage) =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length']) > 0;

/** The body, or undefined once it passes `limit` bytes (the rest left unread, the connection kept for the answer). */
async function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Writes the core's answer; Node leaves the body out of an answer to HEAD. */
function write(req: IncomingMessage, res: ServerResponse, answer: DoorAnswer, closing: boolean): void {
  const close = answer.close === true;
  if (!close && !req.complete && announcesBody(req)) {
    // Answered before its body was read: drained first, so broken framing in it gets Node's one 400, not a second answer.
    req.once('end', () => write(req, res, answer, closing)).resume();
    return;
  }
  res.writeHead(answer.status, close || closing ? { ...answer.headers, connection: 'close' } : answer.headers);
  res.end(answer.body);
}

/** The host of the sandbox's `url`: where it listens, or on every address the first allowed name (a CI service's `sandbox`), else 127.0.0.1. */
function urlHost(host: string, allowedHosts: string[] = []): string {
  if (host === '0.0.0.0' || host === '::') return allowedHosts[0]?.toLowerCase() ?? '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts the sandbox server; `startSandbox` of `@verification-service/contracts/sandbox` (in-process.ts) is this for a partner's test suite. */
export async function serveSandbox(options: SandboxOptions = {}) {
  const host = options.host ?? DEFAULT_HOST;
  // The command's --webhook-url meets the rule of `PUT /partners` before anything starts.
  const refused = webhookUrlRefusal(options.webhookUrl ?? '');
  if (refused) throw new TypeError(`webhook URL refused: ${refused}`);
  const saved = options.state === undefined ? undefined : readStateFile(options.state);
  // Slow clients (slowloris) get Node's 408 after a bound, which connectionsCheckingInterval checks often enough.
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(30_000, headersTimeout);

  let core: SandboxCore;
  let closing = false;
  const server = createHttpServer(
    {
      headersTimeout,
      requestTimeout,
      connectionsCheckingInterval: Math.min(1000, headersTimeout / 2),
    },
    (req, res) => {
      core.answer(doorRequest(req)).then(
        (answer) => answer && write(req, res, answer, closing),
        (err: Error) => res.destroy(err),
      );
    },
  );
  // Idle keep-alive connections are kept 72 s, not Node's 5 s, so a client pausing between calls keeps its own (S23).
  server.keepAliveTimeout = 72_000;
  server.listen(options.port ?? COMMAND_PORT, host);
  await once(server, 'listening');

  // Verification URLs carry the port the system gave, so the state is made once it listens, before any request is read.
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(host, options.allowedHosts)}:${port}`;
  let stateFile: StateFile | undefined;
  core = createSandboxCore({
    ...options,
    url,
    hostGuard: { port },
    authKey: saved?.authKey ?? options.authKey,
    accessToken: saved?.accessToken ?? options.accessToken,
    documents: {
      v2: readBundledDocument('v2'),
      partner: readBundledDocument('partner'),
      sandbox: readBundledDocument('sandbox'),
    },
    precompiled: requestValidators,
    compiler: ajvCompiler,
    homepage: packageHomepage(),
    onDeliveryFailure: options.onDeliveryFailure ?? ((line) => process.stderr.write(`${line}\n`)),
    wrap: options.faults?.length ? (route, handle) => withFaults(options.faults!, route, handle) : undefined,
    // With --state an answer waits until what its change wrote is on disk.
    commit: (answer, changed) => (stateFile ? stateFile.commit(answer, changed) : answer),
    onDeliveryRecorded: () => stateFile?.commit(undefined),
  });
  const { partner, v2, clock, delivery } = core;
  if (options.state !== undefined) {
    const deps = { clock, partner: partner.store, v2, authKey: core.authKey(), accessToken: core.accessToken };
    try {
      stateFile = new StateFile(options.state, deps, saved);
    } catch (err) {
      server.close();
      throw err;
    }
  }
  // Webhooks not yet delivered when the sandbox stopped go out again.
  for (const emitted of partner.pendingEvents()) delivery.enqueue(emitted);

  return {
    ...core,
    url,
    // With --state, the key active when the sandbox stopped.
    authKey: core.authKey(),
    close: async () => {
      core.close();
      closing = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      stateFile?.close();
    },
  };
}

/** A sandbox `serveSandbox` started: what tests and tools hold while it runs. */
export type Sandbox = Awaited<ReturnType<typeof serveSandbox>>;
