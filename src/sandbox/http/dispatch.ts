// The sandbox's HTTP layer on node:http (DECISIONS S23): finds the operation,
// guards the control API, reads the JSON body, checks the credential, parses
// the request from the contract, runs the handler and answers with the
// JSON text and its length. Every refusal is in the error shape of the API
// the path belongs to (error-bodies.ts).
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { JsonText, type CachedAnswer } from '../common/answer-cache.js';
import { MALFORMED_TARGET } from './client-errors.js';
import type { Contract, ParsedRequest, RouteSpec, Violation } from '../../contract/routes.js';
import { controlRefusal, hostRefusal } from './control-guard.js';
import { REASON_HEADER } from './credential-refusal.js';
import { apiOf, errorBody, type ApiName } from './error-bodies.js';
import type { Faults } from './faults.js';
import { SandboxError } from '../common/sandbox-error.js';
import type { Handler } from '../operations/partner.js';
import { readJsonBody, type BodyResult } from './request-body.js';
import { announcesBody, headerOf } from './request-headers.js';
import { Router, type Lookup } from './router.js';

type Answer = [number, unknown];

export interface DispatchOptions {
  contracts: Record<ApiName, Contract>;
  handlers: Record<ApiName, Record<string, Handler>>;
  /** Whether the request carries the credential the route requires (`header` reads one of its headers). */
  authorized: (route: RouteSpec, header: (name: string) => string | undefined) => boolean;
  /** Why `authorized` said no, sent in a header of the sandbox's own (credential-refusal.ts). */
  refusalReason?: (route: RouteSpec, header: (name: string) => string | undefined) => string | undefined;
  /** Runs a handler (journaling the change with --state); see ../persistence/journal.ts. */
  apply: (op: string, write: boolean, req: ParsedRequest, handle: Handler) => Answer | Promise<Answer>;
  faults: Faults;
  /** GET answers sent before (answer-cache.ts): the one for a key while the state is unchanged, and where a new one is kept. */
  cache: { read(key: object): CachedAnswer | undefined; keep(key: object, status: number, answer: JsonText): void };
  /** The sandbox's port, which the control API's Host must name. */
  port: number;
  /** Check every answer against the documents and answer 500 on a violation. */
  validateResponses: boolean;
  violations: string[];
}

interface Operation {
  api: ApiName;
  route: RouteSpec;
  handle: Handler;
  /** `partner.createVerification`: the journal's name of the operation. */
  op: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
// Most requests have no query; they share one (never modified) empty one.
const NO_QUERY = new URLSearchParams();

/** An answer body as a value (a handler may answer with JSON text). */
const plain = (body: unknown) => (body instanceof JsonText ? JSON.parse(body.text) : body);

type Found = Extract<Lookup<Operation>, { found: true }>;

/** Lookups kept per method; a client that sends more distinct targets than this starts the memory again. */
const MAX_REMEMBERED_TARGETS = 4096;

export class Dispatcher {
  /** Set when the sandbox stops: answers then close their connection. */
  closing = false;
  private readonly router = new Router<Operation>();
  // Clients send the same targets again and again; a found one is looked up once.
  private readonly found = new Map<string, Map<string, Lookup<Operation>>>();

  constructor(private readonly o: DispatchOptions) {
    for (const api of Object.keys(o.contracts) as ApiName[]) {
      for (const route of o.contracts[api].routes) {
        const handle = o.handlers[api][route.operationId];
        if (!handle) {
          // Met by the API team after adding an operation to a document: say where its handler goes.
          const home = { v2: 'src/sandbox/server.ts (the v2 handlers)', partner: 'src/sandbox/operations/partner.ts', sandbox: 'src/sandbox/operations/control.ts' }[api];
          throw new Error(`sandbox: the ${api} document has operation ${route.operationId}, which the sandbox has no handler for; add one in ${home}`);
        }
        const operation = { api, route, handle, op: `${api}.${route.operationId}` };
        this.router.add(route.method, route.path, operation);
        // HEAD answers as GET without the body (node:http leaves it out).
        if (route.method === 'GET') this.router.add('HEAD', route.path, operation);
      }
    }
  }

  /** The `request` listener of the server. */
  readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    try {
      this.dispatch(req, res);
    } catch (err) {
      this.crashed(req, res, err as Error);
    }
  };

  /** Answers 403 to a request whose Host is not this machine's (control-guard.ts); true when it did. */
  refusesForeignHost(req: IncomingMessage, res: ServerResponse): boolean {
    const refusal = hostRefusal(req.headers, this.o.port);
    if (refusal) this.fail(res, apiOf(req.url ?? '/'), refusal.status, refusal.message);
    return refusal !== undefined;
  }

  private dispatch(req: IncomingMessage, res: ServerResponse): void {
    const target = req.url ?? '/';
    const method = req.method ?? 'GET';
    const found = this.lookup(method, target);
    if (!found.found) {
      const api = apiOf(target);
      if (found.malformed) return this.fail(res, api, 400, undefined, [MALFORMED_TARGET]);
      const [path, query] = target.split(/\?(.*)/s);
      // The documents' paths differ by a trailing slash (`/v2/verifications/`
      // but `/verifications`): a client that got it wrong is told the path.
      const other = path.endsWith('/') ? path.replace(/\/+$/, '') : `${path}/`;
      const hint = other && this.lookup(method, query === undefined ? other : `${other}?${query}`).found ? `; the documented path is ${other}` : '';
      // v2's 404 body keeps the documented text, so the hint also travels in the reason header (S33).
      if (hint) res.setHeader(REASON_HEADER, `no operation ${method} ${path}${hint}`);
      return this.fail(res, api, 404, `no operation ${method} ${path}${hint}`);
    }
    const operation = found.value;
    const { api, route } = operation;
    // Before the body is read (control-guard.ts).
    if (api === 'sandbox') {
      const refusal = controlRefusal(method, req.headers);
      if (refusal) return this.fail(res, api, refusal.status, refusal.message, [], route);
    }
    if (method === 'GET' || method === 'HEAD') return this.serve(req, res, operation, found, undefined);
    readJsonBody(
      req,
      api,
      (result: BodyResult) => {
        // Called from the request's stream events: a throw here must become a 500, not leave the process.
        try {
          if (result.ok) this.serve(req, res, operation, found, result.body);
          else this.fail(res, api, result.status, result.message, result.violations, undefined, result.close);
        } catch (err) {
          this.crashed(req, res, err as Error);
        }
      },
      // A body cut short or broken mid-way: the clientError listener answers
      // the framing error (client-errors.ts), a client that left needs no answer.
      () => undefined,
    );
  }

  private lookup(method: string, target: string): Lookup<Operation> {
    let byTarget = this.found.get(method);
    const known = byTarget?.get(target);
    if (known) return known;
    const found = this.router.lookup(method, target);
    if (!found.found) return found;
    if (!byTarget) this.found.set(method, (byTarget = new Map()));
    if (byTarget.size >= MAX_REMEMBERED_TARGETS) byTarget.clear();
    byTarget.set(target, found);
    return found;
  }

  private serve(req: IncomingMessage, res: ServerResponse, operation: Operation, found: Found, body: unknown): void {
    const { params, query: queryText } = found;
    const { api, route } = operation;
    const faults = this.o.faults;
    if (!this.o.authorized(route, (name) => headerOf(req, name)) && !faults.ignoresCredentials(route)) {
      const why = this.o.refusalReason?.(route, (name) => headerOf(req, name));
      if (why) res.setHeader(REASON_HEADER, why);
      return this.fail(res, api, 401, 'Unauthorized', [], route);
    }
    const broken = faults.serverError(route);
    if (broken) return void this.respond(res, broken[0], broken[1]);
    // The same target read again while nothing changed: the text sent then,
    // found by the remembered lookup of the target (one per method and target).
    // Never the control API (its clock and outbox move on their own), nor with faults.
    const cacheKey = route.method === 'GET' && api !== 'sandbox' && !faults.active ? found : undefined;
    if (cacheKey !== undefined) {
      const hit = this.o.cache.read(cacheKey);
      if (hit) return void this.respond(res, hit[0], hit[1]);
    }
    const query = faults.query(route, queryText === '' ? NO_QUERY : new URLSearchParams(queryText));
    const parsed = route.parse({ params, query, body });
    const accepted = parsed.ok ? undefined : faults.acceptInvalid(route);
    if (accepted) return void this.respond(res, accepted[0], accepted[1]);
    if (!parsed.ok) return this.fail(res, api, 400, undefined, parsed.violations, route);
    let answer: Answer | Promise<Answer>;
    try {
      answer = this.o.apply(operation.op, route.method !== 'GET', parsed.value, operation.handle);
    } catch (err) {
      if (err instanceof SandboxError) return this.fail(res, api, err.status, err.message, [], route);
      throw err;
    }
    const answerWith = (result: Answer) => {
      // A fault changes the answer's value, so it works on the parsed text.
      const [status, answerBody] = faults.active ? faults.answer(route, [result[0], plain(result[1])]) : result;
      this.send(res, api, status, answerBody, route, false, cacheKey);
    };
    if (Array.isArray(answer)) answerWith(answer);
    else answer.then(answerWith).catch((err: Error) => this.crashed(req, res, err));
  }

  /** An answer of the sandbox: checked against the documents when asked to (for tests). */
  private send(res: ServerResponse, api: ApiName, status: number, body: unknown, route?: RouteSpec, close = false, cacheKey?: object): void {
    if (this.o.validateResponses) {
      const problems = route ? route.checkResponse(status, plain(body)) : this.o.contracts[api].checkError(plain(body));
      if (problems.length) {
        const where = route ? `${route.method} ${route.path}` : api;
        this.o.violations.push(`${where} ${status}: ${problems.join('; ')}`);
        return void this.respond(res, 500, errorBody(api, 500, `sandbox answer violates the contract: ${problems.join('; ')}`), close);
      }
    }
    const sent = this.respond(res, status, body, close);
    if (cacheKey !== undefined && sent !== undefined && status >= 200 && status < 300) this.o.cache.keep(cacheKey, status, sent);
  }

  private fail(res: ServerResponse, api: ApiName, status: number, message?: string, found: Violation[] = [], route?: RouteSpec, close = false): void {
    this.send(res, api, status, errorBody(api, status, message, found), route, close);
  }

  /** Sends the answer; returns its JSON text when it was sent at once. */
  private respond(res: ServerResponse, status: number, body: unknown, close = false): JsonText | undefined {
    const req = res.req;
    if (!close && !req.complete && announcesBody(req)) {
      // Answered before its body was read (an unknown path, a refusal): the
      // body is drained first, so that broken framing in it gets the one
      // answer the clientError listener gives, not a second one.
      req.once('end', () => this.respond(res, status, body, close)).resume();
      return undefined;
    }
    let headers: OutgoingHttpHeaders;
    let json: JsonText | undefined;
    if (body === undefined) {
      headers = status === 204 || status === 304 ? {} : { 'content-length': 0 };
    } else {
      json = body instanceof JsonText ? body : new JsonText(JSON.stringify(body));
      // nosniff: a browser never reads an answer as anything but the JSON it is.
      headers = { 'content-type': JSON_TYPE, 'content-length': json.bytes, 'x-content-type-options': 'nosniff' };
    }
    if (close || this.closing) headers.connection = 'close';
    res.writeHead(status, headers);
    res.end(json?.text);
    return json;
  }

  /** A handler or the state file failed: a 500 the tests see as a violation (a bad body is a 400). */
  private crashed(req: IncomingMessage, res: ServerResponse, err: Error & { statusCode?: number }): void {
    if (res.headersSent) {
      res.destroy(err);
      return;
    }
    const api = apiOf(req.url ?? '/');
    if (err instanceof SyntaxError || err.statusCode === 400) {
      return this.fail(res, api, 400, undefined, [{ field: 'body', reasonCode: 'INVALID_JSON', params: { message: err.message } }]);
    }
    this.o.violations.push(`unexpected error on ${req.method} ${req.url}: ${err.stack ?? err.message}`);
    this.fail(res, api, 500, 'internal error of the sandbox');
  }
}
