// The stateful sandbox: both APIs and the control API served from their
// bundled documents, with real state, credentials and validation.
// `serveSandbox` assembles the layers: the partner engine and the v2
// sessions, webhook delivery, the --state file, the door and the pages.
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { readBundledDocument } from '../package-files.js';
import { SandboxClock } from './common/clock.js';
import { answerClientError } from './http/client-errors.js';
import { Contract, type ParsedRequest, type RouteSpec } from '../contract/routes.js';
import { controlHandlers } from './operations/control.js';
import { refusalReason } from './http/credential-refusal.js';
import { Dispatcher } from './http/dispatch.js';
import type { ApiName } from './http/error-bodies.js';
import { partnerHandlers, type Handler } from './operations/partner.js';
import { createPartnerState, type PartnerState } from './partner/state.js';
import { V2State, type V2Verification } from './v2/state.js';
import { WebhookDelivery } from './partner/delivery.js';
import { EffectJournal, readSavedState } from './persistence/effect-journal.js';
import type { FaultSpec } from './http/faults.js';
import { EndUserPage } from './http/end-user-page.js';
import { servesHomePage } from './http/home-page.js';
import type { StartSandboxOptions } from './in-process.js';

/**
 * The in-process API's options (the command line's, under the same names;
 * `port` defaults to 4020 here) and those of this package's own tests.
 */
export interface SandboxOptions extends StartSandboxOptions {
  host?: string;
  /** Check every answer against the documents and answer 500 on a violation (for tests). */
  validateResponses?: boolean;
  /** Called with each warning (a torn last record of the state file); printed to stderr when absent. */
  onWarning?: (message: string) => void;
  /** Departures from the contract to commit on purpose (see http/faults.ts), for proving a conformance run notices them. */
  faults?: FaultSpec[];
  /** A connection that has not sent its whole headers in this time is answered 408 and closed (default 10 s). */
  headersTimeoutMs?: number;
  /** The same for the whole request, body included (default 30 s). */
  requestTimeoutMs?: number;
  /** Where partner ids come from (UUIDs; random by default). Tests use it to give records documented ids. */
  newId?: () => string;
}

export interface Sandbox {
  url: string;
  authKey: string;
  accessToken: string;
  clock: SandboxClock;
  partner: PartnerState;
  v2: V2State;
  /** Contract violations of answers seen so far (with validateResponses). */
  violations: string[];
  close(): Promise<void>;
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
const token = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex')}`;

function v2Seed(): V2Verification[] {
  const doc = readBundledDocument('v2');
  return Object.values<any>(doc.components.examples)
    .map((e) => e.value)
    .flatMap((v) => (Array.isArray(v?.items) ? v.items : [v]))
    .filter((v) => typeof v?.id === 'string' && typeof v?.status === 'string');
}

/** Starts the sandbox server; `startSandbox` of `@verification-service/contracts/sandbox` (in-process.ts) is this for a partner's test suite. */
export async function serveSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const saved = options.state === undefined ? undefined : readSavedState(options.state);
  const authKey = saved?.meta?.authKey ?? options.authKey ?? token('sbx');
  const accessToken = saved?.meta?.accessToken ?? options.accessToken ?? token('v2');
  const clock = new SandboxClock();
  // Slow clients (slowloris) are closed after a bound; Node checks it every
  // connectionsCheckingInterval, so the check runs often enough to matter.
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout);
  const violations: string[] = [];

  // Verification URLs carry the sandbox's address, so the port is settled
  // before the state is made (port 0 asks the OS for a free one).
  const port = options.port === 0 ? await freePort(host) : (options.port ?? 4020);
  const url = `http://${host}:${port}`;
  const seed = v2Seed();
  const v2 = new V2State(() => seed, clock, url);
  let journal: EffectJournal | undefined;
  // `partner` is read lazily: delivery needs the state, the state emits into delivery.
  let partner: PartnerState;
  const delivery = new WebhookDelivery({
    clock,
    target: () => partner.webhookTarget(),
    authKey: () => partner.activeAuthKey(),
    record: (eventId, result) => {
      partner.recordDelivery(eventId, result);
      void Promise.resolve(journal?.commit(undefined)).catch(() => undefined);
    },
    retryIntervalMs: options.retryIntervalSeconds === undefined ? undefined : options.retryIntervalSeconds * 1000,
    onFailure: options.onDeliveryFailure ?? ((line) => process.stderr.write(`${line}\n`)),
  });
  partner = createPartnerState({
    clock,
    authKey,
    webhookUrl: options.webhookUrl,
    publicUrl: url,
    newId: options.newId,
    onEvent: (emitted) => {
      delivery.enqueue(emitted);
      options.onWebhook?.(emitted.event, emitted.text);
    },
  });
  if (options.state !== undefined && saved) {
    journal = new EffectJournal({ clock, partner: partner.store, v2, authKey, accessToken }, options.state, saved);
    const warn = options.onWarning ?? ((message: string) => process.stderr.write(`warning: ${message}\n`));
    for (const message of saved.warnings) warn(message);
  }
  // A request happens at one instant, after time has done its work; with
  // --state its answer waits until what it changed is on disk.
  const run = (handle: Handler, req: ParsedRequest) => {
    const answer = clock.at(() => {
      partner.expireDue();
      return handle(req);
    });
    return journal ? journal.commit(answer) : answer;
  };

  const contracts: Record<ApiName, Contract> = {
    v2: new Contract('v2', readBundledDocument('v2'), { errorSchema: 'Error', security: () => 'bearer' }),
    partner: new Contract('partner', readBundledDocument('partner'), { errorSchema: 'Error', security: () => 'authKey' }),
    sandbox: new Contract('sandbox', readBundledDocument('sandbox'), { errorSchema: 'Error', security: () => 'none' }),
  };
  const handlers: Record<ApiName, Record<string, Handler>> = {
    v2: {
      getVerification: (req) => [200, v2.get(String(req.params.id))],
      listVerifications: (req) => [200, v2.list(req.query as never)],
    },
    partner: partnerHandlers(partner),
    sandbox: controlHandlers({ partner, v2, clock, delivery, credentials: () => ({ url, authKey: partner.activeAuthKey(), accessToken }) }),
  };

  const bearer = `Bearer ${accessToken}`;
  const authorized = (route: RouteSpec, header: (name: string) => string | undefined) => {
    if (route.security === 'authKey') return header('x-auth-key') === partner.activeAuthKey();
    if (route.security === 'bearer') return header('authorization') === bearer;
    return true;
  };
  const dispatcher = new Dispatcher({
    contracts,
    handlers,
    authorized,
    refusalReason: (route, header) => refusalReason(route.security, header, { authKeyState: (key) => partner.authKeyState(key), accessToken }),
    run,
    faults: options.faults ?? [],
    port,
    validateResponses: Boolean(options.validateResponses),
    violations,
  });
  // Pages for a browser: the root, and the end user's page at each verification `url`.
  const endUserPage = new EndUserPage({
    url,
    port,
    control: { contract: contracts.sandbox, handlers: handlers.sandbox },
    getVerification: handlers.partner.getVerification,
    run,
    verificationIdForToken: (token) => partner.verificationIdForToken(token),
    isV2Session: (id) => v2.saved().some((s) => s.id === id),
  });
  const server = createHttpServer(
    { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(1000, headersTimeout / 2) },
    // The end user's page answers a foreign Host with a page of its own; every other route with the API's 403.
    (req, res) => endUserPage.serves(req, res) || dispatcher.refusesForeignHost(req, res) || servesHomePage(req, res, url) || dispatcher.listener(req, res),
  );
  // Idle keep-alive connections are kept 72 s rather than Node's 5 s, so a
  // client pausing between calls keeps its connection (S23).
  server.keepAliveTimeout = 72_000;
  // Node's HTTP parser refuses some requests (a raw non-ASCII byte in the
  // path, a request line or headers over its limit, broken framing, a slow
  // client) before they are requests; they get the same error shapes.
  server.on('clientError', answerClientError);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Webhooks not yet delivered when the sandbox stopped go out again.
  for (const emitted of partner.pendingEvents()) delivery.enqueue(emitted);

  return {
    url,
    // With --state, the key active when the sandbox stopped.
    authKey: partner.activeAuthKey(),
    accessToken,
    clock,
    partner,
    v2,
    violations,
    close: async () => {
      delivery.close();
      dispatcher.closing = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      journal?.close();
    },
  };
}
