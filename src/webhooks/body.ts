/**
 * A webhook body exactly as it arrived: the text, or its bytes as any runtime hands them over (a Node `Buffer` is a
 * `Uint8Array`), never re-serialized JSON.
 */
export type RawBody = string | Uint8Array | ArrayBuffer | DataView;

/** Why a body cannot be read, or null when it can. */
export function bodyProblem(rawBody: unknown): string | null {
  if (typeof rawBody === 'string' || ArrayBuffer.isView(rawBody) || isBuffer(rawBody)) return null;
  const kind = rawBody === null ? 'null' : Array.isArray(rawBody) ? 'an array' : typeof rawBody;
  return `the webhook body must be the raw body as received (a string, Uint8Array, ArrayBuffer or DataView), not ${kind}; a parsed JSON object cannot be verified`;
}

/**
 * Whether `value` is a real ArrayBuffer or SharedArrayBuffer from any realm: each class's byteLength getter answers
 * only for a buffer with its internal slot, so a look-alike is refused, never read by what it claims.
 */
const isBuffer = (value: unknown): value is ArrayBuffer =>
  hasBufferSlot(value, ArrayBuffer) || hasBufferSlot(value, globalThis.SharedArrayBuffer);

/** Whether `value` has the slot of `buffer`'s class; false for a class the runtime does not have (undefined). */
function hasBufferSlot(value: unknown, buffer: typeof ArrayBuffer | typeof SharedArrayBuffer | undefined): boolean {
  try {
    // The getter called on `value`: it throws for anything but a buffer of its class.
    Reflect.get(buffer!.prototype, 'byteLength', value);
    return true;
  } catch {
    return false;
  }
}

/** The body as a string or bytes, without copying; null when it is neither. */
export function bodyView(rawBody: unknown): string | Uint8Array | null {
  if (typeof rawBody === 'string') return rawBody;
  // Any view, a Uint8Array too (one more view is cheaper than the bytes of a check).
  if (ArrayBuffer.isView(rawBody)) {
    // A view's buffer getter can be shadowed by an own property: only a real buffer is read.
    const buffer: unknown = rawBody.buffer;
    return isBuffer(buffer) ? new Uint8Array(buffer, rawBody.byteOffset, rawBody.byteLength) : null;
  }
  if (isBuffer(rawBody)) return new Uint8Array(rawBody);
  return null;
}

// The BOM kept as the character it is (the text is the body, byte for byte): webhookJson drops it.
const strictUtf8 = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The JSON value of a webhook body, decoded strictly as UTF-8, one leading byte order mark ignored (RFC 8259, 8.1
 * allows a reader to): throws for bytes that are not UTF-8 and JSON.parse's SyntaxError for text that is not JSON.
 */
export function webhookJson(body: string | Uint8Array): unknown {
  const text = typeof body === 'string' ? body : strictUtf8.decode(body);
  return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}
