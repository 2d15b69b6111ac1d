// The stateful sandbox: both APIs and the control API served from their
// bundled documents, with real state, credentials and validation.
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { readBundledDocument } from '../package-files.js';
import { SandboxClock } from './clock.js';
import { useJsonBodies } from './body-parsing.js';
import { answerClientError, MALFORMED_TARGET } from './client-errors.js';
import { Contract, type RouteSpec, type Violation } from './contract.js';
import { controlRefusal } from './control-guard.js';
import { controlHandlers } from './control-handlers.js';
import { apiOf, errorBody, type ApiName } from './error-bodies.js';
import { SandboxError, type EmittedEvent } from './partner-api.js';
import { partnerHandlers, type Handler } from './partner-handlers.js';
import { PartnerState } from './partner-state.js';
import { V2State, type V2Verification } from './v2-state.js';
import { WebhookDelivery } from './delivery.js';
import { Changes, savedIdentity } from './persistence.js';
import { SandboxRandom } from './random.js';
import { Faults, type FaultSpec } from './faults.js';

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** The partner's first active auth key; generated when absent. */
  authKey?: string;
  /** The v2 bearer token; generated when absent. */
  accessToken?: string;
  /** Check every answer against the documents and answer 500 on a violation (for tests). */
  validateResponses?: boolean;
  /** Called for every webhook the sandbox emits. */
  onEvent?: (emitted: EmittedEvent) => void;
  /** The partner's webhookUrl at start (PUT /partners changes it). */
  webhookUrl?: string;
  /** Webhook retry interval in ms; the service's is 15 minutes. */
  retryIntervalMs?: number;
  /** Keep the whole state in this file across restarts (DECISIONS S21); its saved keys win over authKey/accessToken. */
  state?: string;
  /** Called with each warning (a torn last record of the state file); printed to stderr when absent. */
  onWarning?: (message: string) => void;
  /** Departures from the contract to commit on purpose (see faults.ts), for proving a conformance run notices them. */
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

const MiB = 1024 * 1024;
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

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const saved = options.state === undefined ? undefined : savedIdentity(options.state);
  const authKey = saved?.meta?.authKey ?? options.authKey ?? token('sbx');
  const accessToken = saved?.meta?.accessToken ?? options.accessToken ?? token('v2');
  const random = new SandboxRandom();
  const clock = new SandboxClock();
  // Slow clients (slowloris) are closed after a bound; Node checks it every
  // connectionsCheckingInterval, so the check runs often enough to matter.
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout);
  const app: FastifyInstance = Fastify({
    requestTimeout,
    http: { headersTimeout, connectionsCheckingInterval: Math.min(1000, headersTimeout / 2) },
    logger: false,
    bodyLimit: MiB,
    // Router options go under routerOptions: at the top level fastify 5 warns (FSTDEP022).
    routerOptions: { ignoreTrailingSlash: false, ignoreDuplicateSlashes: false },
    // A URL that cannot be decoded (`%C3%28`) never reaches a route.
    frameworkErrors: (_err, request, reply) => fail(reply, apiOf(request.url), 400, undefined, [MALFORMED_TARGET]),
    // Node's HTTP parser refuses some requests (a raw non-ASCII byte in the
    // path, a request line or headers over its limit) before fastify sees
    // them; they get the same error shapes, written to the socket.
    clientErrorHandler: (err, socket) => answerClientError(err, socket),
  });
  const violations: string[] = [];
  const faults = new Faults(options.faults);
  useJsonBodies(app);

  // Verification URLs carry the sandbox's address, so the port is settled
  // before the state is made (port 0 asks the OS for a free one).
  const port = options.port === 0 ? await freePort(host) : (options.port ?? 4020);
  const url = `http://${host}:${port}`;
  const seed = v2Seed();
  const v2 = new V2State(() => seed, clock, url, random);
  // `partner` is read lazily: delivery needs the state, the state emits into delivery.
  let partner: PartnerState;
  const delivery = new WebhookDelivery({
    clock,
    target: () => partner.webhookTarget(),
    authKey: () => partner.activeAuthKey(),
    record: (eventId, result) => changes.delivered(eventId, result),
    retryIntervalMs: options.retryIntervalMs,
  });
  partner = new PartnerState({
    clock,
    authKey,
    random,
    webhookUrl: options.webhookUrl,
    publicUrl: url,
    newId: options.newId,
    onEvent: (emitted) => {
      changes.emitted(emitted.event.eventId);
      // A replayed change rebuilds its webhooks; they were sent the first time.
      if (changes.replaying) return;
      delivery.enqueue(emitted);
      options.onEvent?.(emitted);
    },
  });
  const changes = new Changes({ clock, random, partner, v2, authKey, accessToken, publicUrl: url });

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

  const send = (reply: FastifyReply, api: ApiName, status: number, body: unknown, route?: RouteSpec) => {
    if (options.validateResponses) {
      const problems = route ? route.checkResponse(status, body) : contracts[api].checkError(body);
      if (problems.length) {
        const where = route ? `${route.method} ${route.path}` : api;
        violations.push(`${where} ${status}: ${problems.join('; ')}`);
        return reply.code(500).send(errorBody(api, 500, `sandbox answer violates the contract: ${problems.join('; ')}`));
      }
    }
    return body === undefined ? reply.code(status).send() : reply.code(status).send(body);
  };
  const fail = (reply: FastifyReply, api: ApiName, status: number, message?: string, found: Violation[] = [], route?: RouteSpec) =>
    send(reply, api, status, errorBody(api, status, message, found), route);

  const authorized = (route: RouteSpec, request: FastifyRequest) => {
    if (route.security === 'authKey') return request.headers['x-auth-key'] === partner.activeAuthKey();
    if (route.security === 'bearer') return request.headers.authorization === `Bearer ${accessToken}`;
    return true;
  };

  for (const api of Object.keys(contracts) as ApiName[]) {
    for (const route of contracts[api].routes) {
      const handle = handlers[api][route.operationId];
      if (!handle) throw new Error(`sandbox: no handler for ${api} ${route.operationId}`);
      app.route({
        method: route.method as 'GET',
        url: route.url,
        // Checked before the body is read (control-guard.ts).
        onRequest:
          api === 'sandbox'
            ? (request, reply, done) => {
                const refusal = controlRefusal(request.method, request.headers, port);
                if (refusal) fail(reply, api, refusal.status, refusal.message, [], route);
                else done();
              }
            : undefined,
        handler: (request, reply) => {
          if (!authorized(route, request) && !faults.ignoresCredentials(route)) return fail(reply, api, 401, 'Unauthorized', [], route);
          const broken = faults.serverError(route);
          if (broken) return reply.code(broken[0]).send(broken[1]);
          const target = request.raw.url ?? '/';
          // Most requests carry no query: they skip parsing a URL.
          const search = target.includes('?') ? new URL(target, 'http://sandbox').searchParams : new URLSearchParams();
          const query = faults.query(route, search);
          const parsed = route.parse({ params: request.params as Record<string, string>, query, body: request.body });
          const accepted = parsed.ok ? undefined : faults.acceptInvalid(route);
          if (accepted) return reply.code(accepted[0]).send(accepted[1]);
          if (!parsed.ok) return fail(reply, api, 400, undefined, parsed.violations, route);
          try {
            const answer = changes.apply(`${api}.${route.operationId}`, route.method !== 'GET', parsed.value, handle);
            const answerWith = (result: [number, unknown]) => {
              const [status, body] = faults.answer(route, result);
              return send(reply, api, status, body, route);
            };
            return Array.isArray(answer) ? answerWith(answer) : answer.then(answerWith);
          } catch (err) {
            if (err instanceof SandboxError) return fail(reply, api, err.status, err.message, [], route);
            throw err;
          }
        },
      });
    }
  }

  app.setNotFoundHandler((request, reply) => {
    const api = apiOf(request.url);
    return fail(reply, api, 404, `no operation ${request.method} ${request.url.split('?')[0]}`);
  });

  // Framework-level refusals (body parsing, size, media type) in the API's shape.
  app.setErrorHandler((err: Error & { code?: string; statusCode?: number }, request, reply) => {
    const api = apiOf(request.url);
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return fail(reply, api, 413, 'request body is larger than 1 MiB');
      case 'SANDBOX_UNSUPPORTED_CHARSET':
        return fail(reply, api, 415, err.message);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return fail(reply, api, 415, `Content-Type must be application/json, not ${request.headers['content-type'] ?? 'missing'}`);
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return fail(reply, api, 400, undefined, [{ field: 'body', reasonCode: 'REQUIRED', params: { message: 'is empty' } }]);
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return fail(reply, api, 400, undefined, [{ field: 'body', reasonCode: 'INVALID_JSON', params: { message: 'is not valid JSON' } }]);
      default:
        if (err instanceof SyntaxError || err.statusCode === 400) {
          return fail(reply, api, 400, undefined, [{ field: 'body', reasonCode: 'INVALID_JSON', params: { message: err.message } }]);
        }
        violations.push(`unexpected error on ${request.method} ${request.url}: ${err.stack ?? err.message}`);
        return fail(reply, api, 500, 'internal error of the sandbox');
    }
  });

  if (options.state !== undefined && saved) {
    const byOp = Object.fromEntries(
      (Object.keys(handlers) as ApiName[]).flatMap((api) => Object.entries(handlers[api]).map(([op, h]) => [`${api}.${op}`, h])),
    );
    const warn = options.onWarning ?? ((message: string) => process.stderr.write(`warning: ${message}\n`));
    for (const message of changes.open(options.state, saved.loaded, byOp)) warn(message);
  }

  await app.listen({ port, host });
  // Webhooks not yet delivered when the sandbox stopped go out again.
  for (const eventId of changes.pendingEvents()) {
    const emitted = partner.emitted(eventId);
    if (emitted) delivery.enqueue(emitted);
  }

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
      await app.close();
      changes.close();
    },
  };
}
