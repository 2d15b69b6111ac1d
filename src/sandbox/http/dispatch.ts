// A request's handling behind either door: route, Content-Type, body, credential, parse, handler, error shape.
import type { Contract, ParsedRequest, RouteSpec, Violation } from '../../contract/routes.js';
import { ContractBreach } from '../../contract/strict-answers.js';
import { dropUnknownFields, unknownFieldViolations } from '../../contract/unknown-fields.js';
import { credentialRefusal, REASON_HEADER, type KnownCredentials } from './credential-refusal.js';
import { jsonAnswer, type DoorAnswer, type DoorRequest } from './door.js';
import { apiOf, errorBody, MALFORMED_TARGET, type ApiName } from './error-bodies.js';
import { SandboxError } from '../common/sandbox-error.js';
import type { Handler } from '../operations/typed.js';
import {
  contentTypeTwice,
  controlContentTypeRefusal,
  partnerContentTypeRefusal,
  readJsonBody,
} from './request-body.js';
import { Router } from './router.js';

export interface DispatchOptions {
  contracts: Record<ApiName, Contract>;
  handlers: Record<ApiName, Record<string, Handler>>;
  /** Wraps an operation's route and handler before it is routed (the server's faults); as they are when absent. */
  wrap?: (route: RouteSpec, handle: Handler) => { route: RouteSpec; handle: Handler };
  /** The credentials in force, which each route's `security` asks one of. */
  credentials: KnownCredentials;
  /** Runs a handler at one instant; with --state the answer waits until its effects are on disk. */
  run: (handle: Handler, req: ParsedRequest, reads?: boolean) => ReturnType<Handler> | Promise<ReturnType<Handler>>;
  /** Accept body fields no operation documents, dropped before the handler runs (refused with 400 otherwise). */
  allowUnknownFields: boolean;
  /** Check every answer against the documents and answer 500 on a violation. */
  validateResponses: boolean;
  violations: string[];
  /** Why an answer breaks the sandbox's own contract (strict-answers.ts), already reported. */
  breach?: (api: ApiName, status: number, body: unknown, route?: RouteSpec) => string | undefined;
}

type Operation = { api: ApiName; route: RouteSpec; handle: Handler };

export class Dispatcher {
  private readonly router = new Router<Operation>();

  constructor(private readonly options: DispatchOptions) {
    for (const api of Object.keys(options.contracts) as ApiName[]) {
      for (const documented of options.contracts[api].routes) {
        const handler = options.handlers[api][documented.operationId];
        if (!handler) {
          // Met by the API team after adding an operation to a document: say where its handler goes.
          const home = `src/sandbox/operations/${api === 'sandbox' ? 'control' : api}.ts`;
          throw new Error(
            `sandbox: the ${api} document has operation ${documented.operationId}, which the sandbox has no handler for; add one in ${home}`,
          );
        }
        const operation = {
          api,
          ...(options.wrap ? options.wrap(documented, handler) : { route: documented, handle: handler }),
        };
        const { method, path } = operation.route;
        this.router.add(method, path, operation);
        // HEAD answers as GET; the door leaves the body out.
        if (method === 'GET') this.router.add('HEAD', path, operation);
      }
    }
  }

  /** The answer to a request; undefined when the request broke off before its body was complete (no one to answer). */
  async answer(req: DoorRequest): Promise<DoorAnswer | undefined> {
    try {
      return await this.dispatch(req);
    } catch (err) {
      // A handler or the state file failed: a 500 the tests see as a violation.
      const { message, stack } = err as Error;
      this.options.violations.push(`unexpected error on ${req.method} ${req.target}: ${stack ?? message}`);
      return this.fail(apiOf(req.target), 500, 'internal error of the sandbox');
    }
  }

  /** An answer outside any operation, in the error shape of the API the target belongs to. */
  refusal(target: string, status: number, message: string): DoorAnswer {
    return this.fail(apiOf(target), status, message);
  }

  private async dispatch(req: DoorRequest): Promise<DoorAnswer | undefined> {
    const { method, target } = req;
    const found = this.router.lookup(method, target);
    if (!found.found) {
      const api = apiOf(target);
      if (found.malformed) return this.fail(api, 400, undefined, [MALFORMED_TARGET]);
      const path = target.split('?')[0];
      // Documented paths differ by a trailing slash (`/v2/verifications/`, `/verifications`): name the documented one.
      const other = path.endsWith('/') ? path.replace(/\/+$/, '') : `${path}/`;
      const hint =
        other && this.router.lookup(method, other + target.slice(path.length)).found
          ? `; the documented path is ${other}`
          : '';
      const message = `no operation ${method} ${path}${hint}`;
      // v2's 404 body keeps the documented text, so the hint also travels in the reason header (S33).
      return this.fail(api, 404, message, [], undefined, hint ? { [REASON_HEADER]: message } : {});
    }
    const { api, route } = found.value;
    const bodiless = method === 'GET' || method === 'HEAD';
    // Two types are refused before the control API's rule reads one of them as its own, and on every partner call.
    const twice = bodiless && api !== 'partner' ? undefined : contentTypeTwice(req.header);
    if (twice) return this.fail(api, 400, undefined, [twice], route);
    // Before the body and the credential, as a body's type is (request-body.ts).
    const untyped = api === 'partner' ? partnerContentTypeRefusal(req) : undefined;
    if (untyped) return this.fail(api, 400, undefined, [untyped], route);
    const uncontrolled = api === 'sandbox' && !bodiless ? controlContentTypeRefusal(req.header) : undefined;
    if (uncontrolled) return this.fail(api, 415, uncontrolled, [], route);
    const result = bodiless
      ? { ok: true as const, body: undefined }
      : await readJsonBody(req, api).catch(() => undefined);
    // A body cut short: Node's parser answers its framing on the node:http door; a client that left needs no answer.
    if (!result) return undefined;
    if (!result.ok) return { ...this.fail(api, result.status, result.message, result.violations), close: result.close };
    return this.serve(req, found.value, found.params, found.query, result.body);
  }

  private async serve(
    { header }: DoorRequest,
    { api, route, handle }: Operation,
    params: Record<string, string>,
    queryText: string,
    body: unknown,
  ): Promise<DoorAnswer> {
    const why = credentialRefusal(route.security, header, this.options.credentials);
    if (why) return this.fail(api, 401, 'Unauthorized', [], route, { [REASON_HEADER]: why });
    const parsed = route.parse({ params, query: new URLSearchParams(queryText), body });
    // Undeclared fields are named beside the validator's findings, so a typo sits next to the field it leaves
    // missing; a body out of bounds (body-limits.ts) is not looked inside.
    const outOfBounds =
      !parsed.ok && parsed.violations.some((v) => v.reasonCode === 'MAX_DEPTH' || v.reasonCode === 'MAX_SIZE');
    const unknown =
      this.options.allowUnknownFields || body === undefined || route.bodySchema === undefined || outOfBounds
        ? []
        : unknownFieldViolations(this.options.contracts[api].doc, route.bodySchema, body);
    if (!parsed.ok || unknown.length)
      return this.fail(api, 400, undefined, [...unknown, ...(parsed.ok ? [] : parsed.violations)], route);
    // Accepted and ignored, as if not sent: a handler copying its input would otherwise store and echo them.
    if (this.options.allowUnknownFields && route.bodySchema !== undefined)
      dropUnknownFields(this.options.contracts[api].doc, route.bodySchema, parsed.value.body);
    try {
      const [status, answer] = await this.options.run(handle, parsed.value, route.method === 'GET');
      return this.send(api, status, answer, route);
    } catch (err) {
      if (err instanceof SandboxError) return this.fail(api, err.status, err.message, [], route);
      // A webhook the handler emitted broke the contract: reported already, and never sent.
      if (err instanceof ContractBreach) return jsonAnswer(500, errorBody(api, 500, err.message));
      throw err;
    }
  }

  /** An answer of the sandbox: held to its fields always, checked against the documents when asked to (for tests). */
  private send(
    api: ApiName,
    status: number,
    body: unknown,
    route?: RouteSpec,
    headers: Record<string, string> = {},
  ): DoorAnswer {
    // The sandbox's own fault, never the caller's: a 500 that says so.
    const breach = this.options.breach?.(api, status, body, route);
    if (breach) return jsonAnswer(500, errorBody(api, 500, breach));
    const problems = !this.options.validateResponses
      ? []
      : route
        ? route.checkResponse(status, body)
        : this.options.contracts[api].checkError(body);
    if (!problems.length) return jsonAnswer(status, body, headers);
    this.options.violations.push(`${route ? `${route.method} ${route.path}` : api} ${status}: ${problems.join('; ')}`);
    return jsonAnswer(500, errorBody(api, 500, `sandbox answer violates the contract: ${problems.join('; ')}`));
  }

  private fail(
    api: ApiName,
    status: number,
    message?: string,
    found: Violation[] = [],
    route?: RouteSpec,
    headers: Record<string, string> = {},
  ): DoorAnswer {
    return this.send(api, status, errorBody(api, status, message, found), route, headers);
  }
}
