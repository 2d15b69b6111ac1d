// The faults of `sandbox --fault …`, so a conformance run can prove it notices each departure from the contract: each
// wraps an operation's route and handler (never the control API's), so the dispatcher knows nothing of them.
import { readBundledDocument } from '../../package-files.js';
import { resolveRef } from '../../contract/json-pointer.js';
import type { ParsedRequest, RouteSpec } from '../../contract/routes.js';
import type { Handler } from '../operations/typed.js';
import { errorBody, type ApiName } from './error-bodies.js';

export const FAULTS = {
  'missing-field': 'drops the first field of every successful answer',
  'wrong-status': 'answers 202 (documented nowhere) instead of the success status',
  'ignored-filter': 'ignores the query filters of the lists (keeps page and page size)',
  'accepts-invalid': 'answers an invalid request with the success status and the documented example instead of 400',
  'server-error': 'answers 500 to every request',
  'ignores-credentials': 'serves requests without a valid credential instead of answering 401',
} as const;

type FaultName = keyof typeof FAULTS;

export interface FaultSpec {
  fault: FaultName;
  /** Only this operation (in either API); every operation when absent. */
  operationId?: string;
}

/** Parses `missing-field,wrong-status@getUser`; throws with the known faults on a mistake. */
export function parseFaults(text: string): FaultSpec[] {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.map((item) => {
    const [fault, operationId] = item.split('@');
    if (!(fault in FAULTS))
      throw new Error(`unknown fault "${fault}"; the faults are: ${Object.keys(FAULTS).join(', ')}`);
    return { fault: fault as FaultName, operationId: operationId || undefined };
  });
}

const PAGING = new Set(['page', 'limit', 'pageSize']);
/** What a faulted route's parse hands its faulted handler instead of a request. */
const BROKEN: ParsedRequest = { params: {}, query: {}, body: undefined };
const INVALID: ParsedRequest = { params: {}, query: {}, body: undefined };

/** An operation's route and handler as its faults make them; as they are where none applies. */
export function withFaults(
  specs: FaultSpec[],
  route: RouteSpec,
  handle: Handler,
): { route: RouteSpec; handle: Handler } {
  const mine =
    route.api === 'sandbox'
      ? []
      : specs.filter((s) => s.fault in FAULTS && (s.operationId === undefined || s.operationId === route.operationId));
  const has = (fault: FaultName) => mine.some((s) => s.fault === fault);
  if (!mine.length) return { route, handle };
  return {
    route: {
      ...route,
      security: has('ignores-credentials') ? 'none' : route.security,
      parse: (raw) => {
        // `server-error` answers before the request is looked at.
        if (has('server-error')) return { ok: true, value: BROKEN };
        const query = has('ignored-filter')
          ? new URLSearchParams([...raw.query].filter(([name]) => PAGING.has(name)))
          : raw.query;
        const parsed = route.parse({ ...raw, query });
        return parsed.ok || !has('accepts-invalid') ? parsed : { ok: true, value: INVALID };
      },
    },
    handle: (req) => {
      if (req === BROKEN) return [500, errorBody(route.api as ApiName, 500, 'injected fault: server-error')];
      if (req === INVALID) return documentedExample(route);
      const [status, body] = handle(req);
      if (status < 200 || status > 299) return [status, body];
      const dropFirst = has('missing-field') && body && typeof body === 'object' && !Array.isArray(body);
      return [has('wrong-status') ? 202 : status, dropFirst ? Object.fromEntries(Object.entries(body).slice(1)) : body];
    },
  };
}

/** The operation's success status and the first example the document gives for it. */
function documentedExample(route: RouteSpec): ReturnType<Handler> {
  const doc = readBundledDocument(route.api as 'v2' | 'partner');
  const responses = resolveRef(doc, resolveRef(doc, doc.paths[route.path])[route.method.toLowerCase()].responses);
  const status = Object.keys(responses).find((s) => s.startsWith('2'))!;
  const examples = resolveRef(doc, responses[status])?.content?.['application/json']?.examples ?? {};
  const first = Object.values(examples)[0];
  return [Number(status), first === undefined ? {} : resolveRef(doc, first).value];
}
