/**
 * A webhook body exactly as it arrived: the text, or its bytes as any
 * runtime hands them over (a Node `Buffer` is a `Uint8Array`), never
 * re-serialized JSON.
 */
export type RawBody = string | Uint8Array | ArrayBuffer | DataView;

/** Why a body cannot be read, or null when it can. */
export function bodyProblem(rawBody: unknown): string | null {
  if (typeof rawBody === 'string' || ArrayBuffer.isView(rawBody) || isArrayBuffer(rawBody)) return null;
  const kind = rawBody === null ? 'null' : Array.isArray(rawBody) ? 'an array' : typeof rawBody;
  return `the webhook body must be the raw body as received (a string, Uint8Array, ArrayBuffer or DataView), not ${kind}; a parsed JSON object cannot be verified`;
}

// Checked by tag, not instanceof: bodies may come from another realm
// (a worker, an iframe, a test environment).
const isArrayBuffer = (value: unknown): value is ArrayBuffer =>
  Object.prototype.toString.call(value) === '[object ArrayBuffer]';

/** The body as a string or bytes, without copying; null when it is neither. */
export function bodyView(rawBody: unknown): string | Uint8Array | null {
  if (typeof rawBody === 'string') return rawBody;
  // Any view, a Uint8Array too (one more view is cheaper than the bytes of a check).
  if (ArrayBuffer.isView(rawBody)) return new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  if (isArrayBuffer(rawBody)) return new Uint8Array(rawBody);
  return null;
}

/** The body's text; throws when its bytes are not UTF-8. */
export function bodyText(body: string | Uint8Array): string {
  return typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body);
}
