import type { Violation } from './contract.js';
/** Nesting levels of objects and arrays below a body field; the documents' bodies need fewer than 8. */
export declare const MAX_DEPTH = 32;
/** Bytes of one free-form field as JSON; the partner's largest metadata (50 keys of 540 characters) is about 28 KB. */
export declare const MAX_FREE_FORM_BYTES: number;
/**
 * Violations of the bounds, one per offending top-level field of the body,
 * named like the validator names fields (`body.metadata`).
 */
export declare function bodyLimitViolations(body: unknown, freeFormFields: ReadonlySet<string>): Violation[];
