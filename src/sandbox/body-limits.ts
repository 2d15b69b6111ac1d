// Bounds on what a request body may store (DECISIONS S17). Free-form JSON
// (v2 `metadata` takes any values) would otherwise be kept at any depth or
// size and break every later answer that serialises it; checked at the door,
// before the body is validated or stored, so the refusal changes nothing.
import type { Violation } from './contract.js';

/** Nesting levels of objects and arrays below a body field; the documents' bodies need fewer than 8. */
export const MAX_DEPTH = 32;
/** Bytes of one free-form field as JSON; the partner's largest metadata (50 keys of 540 characters) is about 28 KB. */
export const MAX_FREE_FORM_BYTES = 64 * 1024;

/** Whether a value nests objects or arrays more than `limit` levels (recursion stops at the limit, so the stack stays shallow). */
function deeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit < 1) return true;
  for (const child of Object.values(value)) if (deeperThan(child, limit - 1)) return true;
  return false;
}

/**
 * Violations of the bounds, one per offending top-level field of the body,
 * named like the validator names fields (`body.metadata`).
 */
export function bodyLimitViolations(body: unknown, freeFormFields: ReadonlySet<string>): Violation[] {
  if (body === null || typeof body !== 'object') return [];
  const violations: Violation[] = [];
  for (const [key, value] of Object.entries(body)) {
    const field = `body.${key}`;
    if (deeperThan(value, MAX_DEPTH)) {
      violations.push({ field, reasonCode: 'MAX_DEPTH', params: { limit: MAX_DEPTH, message: `is nested deeper than ${MAX_DEPTH} levels` } });
    } else if (freeFormFields.has(key) && Buffer.byteLength(JSON.stringify(value)) > MAX_FREE_FORM_BYTES) {
      violations.push({ field, reasonCode: 'MAX_SIZE', params: { limit: MAX_FREE_FORM_BYTES, message: `is larger than ${MAX_FREE_FORM_BYTES} bytes as JSON` } });
    }
  }
  return violations;
}
