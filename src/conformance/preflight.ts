// Before a run: one request with the given credential, so that a refused
// credential or a wrong base URL stops the run at once with the fix, instead
// of hundreds of requests reported as the service's violations.
import type { Target } from './http.js';
import type { ApiModel } from './operations.js';

/** The run cannot judge the target (exit 2): the message says what to fix. */
export class PreflightError extends Error {
  override name = 'PreflightError';
}

/** How many list operations are tried before every path is called 404. */
const PROBES = 3;

/**
 * Calls the list operations that need no parameter (GET /partners first for
 * the partner API) with the credential: a 401 is a refused credential; a 404
 * on every one of them a base URL the documented paths do not hang from.
 */
export async function preflight(target: Target, model: ApiModel, headers: Record<string, string>): Promise<void> {
  const probes = model.operations
    .filter((op) => op.readOnly && !op.params.some((p) => p.in === 'path' || p.required))
    .sort((a, b) => Number(b.operationId === 'getPartner') - Number(a.operationId === 'getPartner'))
    .slice(0, PROBES);
  const missing: string[] = [];
  for (const op of probes) {
    const e = await target.send(op.method, op.path, headers);
    if (e.status === 401) throw new PreflightError(refused(model, `${op.method} ${op.path}`, e.reason));
    if (e.status !== 404) return;
    missing.push(`${op.method} ${target.urlOf(op.path)}`);
  }
  if (missing.length) throw new PreflightError(notFound(model, target.base, missing));
}

function refused(model: ApiModel, call: string, reason: string | undefined): string {
  const said = reason ? ` (the target says: ${reason})` : '';
  if (model.scheme === 'authKey') {
    return `the credential was refused: ${call} answered 401 to the given --auth-key${said}. Check the key: POST /auth-keys makes the previous key invalid at once, so after a rotation use the new key (GET /auth-keys with it lists both). Nothing else was sent.`;
  }
  return `the credential was refused: ${call} answered 401 to the given --access-token, sent as Authorization: Bearer${said}. Check the token. Nothing else was sent.`;
}

function notFound(model: ApiModel, base: URL, missing: string[]): string {
  const root = base.pathname.replace(/\/+$/, '');
  const v2Doubled = model.api === 'v2' && /\/v2$/i.test(root);
  const fix = v2Doubled
    ? `drop the trailing /v2 from --base-url (${base.origin}${root.slice(0, -3)}): the v2 paths already start with /v2`
    : `check --base-url: the documented paths are appended to it, so a missing or extra path segment (or another service) answers 404 everywhere`;
  return `every path probed answered 404 (${missing.join(', ')}): ${fix}. Nothing else was sent.`;
}
