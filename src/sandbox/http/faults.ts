// Faults the sandbox can be told to commit (`sandbox --fault …`), so that a
// conformance run against it can prove it notices each kind of departure
// from the contract. Only the partner and v2 APIs are faulted, never the
// control API; a fault names one operation (`missing-field@getUser`) or all.
import { readBundledDocument } from '../../package-files.js';
import type { RouteSpec } from '../../contract/routes.js';
import { errorBody, type ApiName } from './error-bodies.js';

export const FAULTS = {
  'missing-field': 'drops the first field of every successful answer',
  'wrong-status': 'answers 202 (documented nowhere) instead of the success status',
  'ignored-filter': 'ignores the query filters of the lists (keeps page and page size)',
  'accepts-invalid': "answers an invalid request with the success status and the documented example instead of 400",
  'server-error': 'answers 500 to every request',
  'ignores-credentials': 'serves requests without a valid credential instead of answering 401',
} as const;

export type FaultName = keyof typeof FAULTS;

export interface FaultSpec {
  fault: FaultName;
  /** Only this operation (in either API); every operation when absent. */
  operationId?: string;
}

/** Parses `missing-field,wrong-status@getUser`; throws with the known faults on a mistake. */
export function parseFaults(text: string): FaultSpec[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const [fault, operationId] = item.split('@');
      if (!(fault in FAULTS)) throw new Error(`unknown fault "${fault}"; the faults are: ${Object.keys(FAULTS).join(', ')}`);
      return { fault: fault as FaultName, operationId: operationId || undefined };
    });
}

const PAGING = new Set(['page', 'limit', 'pageSize']);
type Answer = [number, unknown];

export class Faults {
  constructor(private readonly specs: FaultSpec[] = []) {}

  /** Whether any fault was asked for. */
  get active(): boolean {
    return this.specs.length > 0;
  }

  private has(fault: FaultName, route: RouteSpec): boolean {
    if (route.api === 'sandbox') return false;
    return this.specs.some((s) => s.fault === fault && (s.operationId === undefined || s.operationId === route.operationId));
  }

  /** `ignores-credentials`: serve the request whatever its credential. */
  ignoresCredentials(route: RouteSpec): boolean {
    return this.has('ignores-credentials', route);
  }

  /** `server-error`: the answer to send before anything else, or undefined. */
  serverError(route: RouteSpec): Answer | undefined {
    return this.has('server-error', route) ? [500, errorBody(route.api as ApiName, 500, 'injected fault: server-error')] : undefined;
  }

  /** `ignored-filter`: the query without its filters. */
  query(route: RouteSpec, query: URLSearchParams): URLSearchParams {
    if (!this.has('ignored-filter', route)) return query;
    return new URLSearchParams([...query].filter(([name]) => PAGING.has(name)));
  }

  /** `accepts-invalid`: the answer to an invalid request, or undefined to refuse it as documented. */
  acceptInvalid(route: RouteSpec): Answer | undefined {
    if (!this.has('accepts-invalid', route)) return undefined;
    const doc = readBundledDocument(route.api as 'v2' | 'partner');
    const deref = (node: any): any => (node?.$ref ? deref(node.$ref.slice(2).split('/').reduce((at: any, k: string) => at[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc)) : node);
    const responses = deref(doc.paths[route.path])[route.method.toLowerCase()].responses;
    const status = Object.keys(responses).find((s) => s.startsWith('2'))!;
    const examples = deref(responses[status])?.content?.['application/json']?.examples ?? {};
    const first = Object.values(examples)[0];
    return [Number(status), first === undefined ? {} : deref(first).value];
  }

  /** `wrong-status` and `missing-field` on a successful answer. */
  answer(route: RouteSpec, [status, body]: Answer): Answer {
    if (status < 200 || status > 299) return [status, body];
    let out: Answer = [status, body];
    if (this.has('missing-field', route) && body && typeof body === 'object' && !Array.isArray(body)) {
      const [, ...rest] = Object.entries(body as Record<string, unknown>);
      out = [status, Object.fromEntries(rest)];
    }
    if (this.has('wrong-status', route)) out = [202, out[1]];
    return out;
  }
}
