// The sandbox's HTTP layer on node:http (S23): finds the operation,
// guards the control API, reads the JSON body, checks the credential, parses
// the request from the contract, runs the handler and answers with the
// JSON text and its length. Every refusal is in the error shape of the API
// the path belongs to (error-bodies.ts). Faults (`--fault`) wrap the
// operations they name before they are routed (faults.ts).
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { MALFORMED_TARGET } from './client-errors.js';
import type { Contract, ParsedRequest, RouteSpec, Violation } from '../../contract/routes.js';
import { controlRefusal, hostRefusal } from './control-guard.js';
import { REASON_HEADER } from './credential-refusal.js';
import { apiOf, errorBody, type ApiName } from './error-bodies.js';
import { withFaults, type FaultSpec } from './faults.js';
import { SandboxError } from '../common/sandbox-error.js';
import type { Handler } from '../operations/partner.js';
import { readJsonBody, type BodyResult } from './request-body.js';
import { Router } from './router.js';

type Answer = [number, unknown];

export interface DispatchOptions {
  contracts: Record<ApiName, Contract>;
  handlers: Record<ApiName, Record<string, Handler>>;
  /** Whether the request carries the credential the route requires (`header` reads one of its headers). */
  authorized: (route: RouteSpec, header: (name: string) => string | undefined) => boolean;
  /** Why `authorized` said no, sent in a header of the sandbox's own (credential-refusal.ts). */
  refusalReason?: (route: RouteSpec, header: (name: string) => string | undefined) => string | undefined;
  /** Runs a handler at one instant; with --state the answer waits until its effects are on disk. */
  run: (handle: Handler, req: ParsedRequest) => Answer | Promise<Answer>;
  faults: FaultSpec[];
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
}

const JSON_TYPE = 'application/json; charset=utf-8';

export class Dispatcher {
  /** Set when the sandbox stops: answers then close their connection. */
  closing = false;
  private readonly router = new Router<Operation>();

  constructor(private readonly options: DispatchOptions) {
    for (const api of Object.keys(options.contracts) as ApiName[]) {
      for (const documented of options.contracts[api].routes) {
        const handler = options.handlers[api][documented.operationId];
        if (!handler) {
          // Met by the API team after adding an operation to a document: say where its handler goes.
          const home = { v2: 'src/sandbox/server.ts (the v2 handlers)', partner: 'src/sandbox/operations/partner.ts', sandbox: 'src/sandbox/operations/control.ts' }[api];
          throw new Error(`sandbox: the ${api} document has operation ${documented.operationId}, which the sandbox has no handler for; add one in ${home}`);
        }
        const { route, handle } = withFaults(options.faults, documented, handler);
        const operation = { api, route, handle };
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
    const refusal = hostRefusal(req.headers, this.options.port);
    if (refusal) this.fail(res, apiOf(req.url ?? '/'), refusal.status, refusal.message);
    return refusal !== undefined;
  }

  private dispatch(req: IncomingMessage, res: ServerResponse): void {
    const target = req.url ?? '/';
    const method = req.method ?? 'GET';
    const found = this.router.lookup(method, target);
    if (!found.found) {
      const api = apiOf(target);
      if (found.malformed) return this.fail(res, api, 400, undefined, [MALFORMED_TARGET]);
      const [path, query] = target.split(/\?(.*)/s);
      // The documents' paths differ by a trailing slash (`/v2/verifications/`
      // but `/verifications`): a client that got it wrong is told the path.
      const other = path.endsWith('/') ? path.replace(/\/+$/, '') : `${path}/`;
      const hint = other && this.router.lookup(method, query === undefined ? other : `${other}?${query}`).found ? `; the documented path is ${other}` : '';
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
    const { params, query } = found;
    if (method === 'GET' || method === 'HEAD') return this.serve(req, res, operation, params, query, undefined);
    readJsonBody(
      req,
      api,
      (result: BodyResult) => {
        // Called from the request's stream events: a throw here must become a 500, not leave the process.
        try {
          if (result.ok) this.serve(req, res, operation, params, query, result.body);
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

  private serve(req: IncomingMessage, res: ServerResponse, { api, route, handle }: Operation, params: Record<string, string>, queryText: string, body: unknown): void {
    const header = (name: string) => req.headers[name] as string | undefined;
    if (!this.options.authorized(route, header)) {
      const why = this.options.refusalReason?.(route, header);
      if (why) res.setHeader(REASON_HEADER, why);
      return this.fail(res, api, 401, 'Unauthorized', [], route);
    }
    const parsed = route.parse({ params, query: new URLSearchParams(queryText), body });
    if (!parsed.ok) return this.fail(res, api, 400, undefined, parsed.violations, route);
    let answer: Answer | Promise<Answer>;
    try {
      answer = this.options.run(handle, parsed.value);
    } catch (err) {
      if (err instanceof SandboxError) return this.fail(res, api, err.status, err.message, [], route);
      throw err;
    }
    if (Array.isArray(answer)) this.send(res, api, answer[0], answer[1], route);
    else answer.then(([status, answerBody]) => this.send(res, api, status, answerBody, route)).catch((err: Error) => this.crashed(req, res, err));
  }

  /** An answer of the sandbox: checked against the documents when asked to (for tests). */
  private send(res: ServerResponse, api: ApiName, status: number, body: unknown, route?: RouteSpec, close = false): void {
    if (this.options.validateResponses) {
      const problems = route ? route.checkResponse(status, body) : this.options.contracts[api].checkError(body);
      if (problems.length) {
        const where = route ? `${route.method} ${route.path}` : api;
        this.options.violations.push(`${where} ${status}: ${problems.join('; ')}`);
        return this.respond(res, 500, errorBody(api, 500, `sandbox answer violates the contract: ${problems.join('; ')}`), close);
      }
    }
    this.respond(res, status, body, close);
  }

  private fail(res: ServerResponse, api: ApiName, status: number, message?: string, found: Violation[] = [], route?: RouteSpec, close = false): void {
    this.send(res, api, status, errorBody(api, status, message, found), route, close);
  }

  private respond(res: ServerResponse, status: number, body: unknown, close = false): void {
    const req = res.req;
    if (!close && !req.complete && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0)) {
      // Answered before its body was read (an unknown path, a refusal): the
      // body is drained first, so that broken framing in it gets the one
      // answer the clientError listener gives, not a second one.
      req.once('end', () => this.respond(res, status, body, close)).resume();
      return;
    }
    const text = body === undefined ? undefined : JSON.stringify(body);
    // nosniff: a browser never reads an answer as anything but the JSON it is.
    const headers: OutgoingHttpHeaders =
      text === undefined
        ? status === 204 || status === 304
          ? {}
          : { 'content-length': 0 }
        : { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text), 'x-content-type-options': 'nosniff' };
    if (close || this.closing) headers.connection = 'close';
    res.writeHead(status, headers);
    res.end(text);
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
    this.options.violations.push(`unexpected error on ${req.method} ${req.url}: ${err.stack ?? err.message}`);
    this.fail(res, api, 500, 'internal error of the sandbox');
  }
}
