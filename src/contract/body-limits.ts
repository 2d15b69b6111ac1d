// Bounds on what a request body may store (S17): free-form JSON (v2 `metadata`)
// would otherwise be kept at any depth or size and break every later answer that
// serialises it; checked before the body is validated or stored.
import type { Violation } from './routes.js';

/** Nesting levels of objects and arrays below a body field; the documents' bodies need fewer than 8. */
export const MAX_DEPTH = 32;
/** Bytes of one free-form field as JSON; the partner's largest metadata (50 keys of 540 characters) is about 28 KB. */
const MAX_FREE_FORM_BYTES = 64 * 1024;

/** Whether a value nests objects or arrays more than `limit` levels (recursion stops at the limit, so the stack stays shallow). */
function deeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  return limit < 1 || Object.values(value).some((inner) => deeperThan(inner, limit - 1));
}

/** Violations of the bounds, one per offending top-level field (`body.metadata`). */
export function bodyLimitViolations(body: unknown, freeFormFields: ReadonlySet<string>): Violation[] {
  if (body === null || typeof body !== 'object') return [];
  const violations: Violation[] = [];
  const refuse = (key: string, reasonCode: string, limit: number, message: string) =>
    violations.push({ field: `body.${key}`, reasonCode, params: { limit, message } });
  // JSON bodies have own properties only (and `__proto__` keys are refused before this).
  for (const [key, value] of Object.entries(body)) {
    // A string or number holds no nesting, and a free-form field is an object (the validator refuses anything else).
    if (value === null || typeof value !== 'object') continue;
    if (deeperThan(value, MAX_DEPTH)) refuse(key, 'MAX_DEPTH', MAX_DEPTH, `is nested deeper than ${MAX_DEPTH} levels`);
    else if (freeFormFields.has(key) && new TextEncoder().encode(JSON.stringify(value)).length > MAX_FREE_FORM_BYTES)
      refuse(key, 'MAX_SIZE', MAX_FREE_FORM_BYTES, `is larger than ${MAX_FREE_FORM_BYTES} bytes as JSON`);
  }
  return violations;
}
