import { bodyView, type RawBody } from './body.js';
import { hmac, sha256 } from './hmac-sha256.js';

export type { RawBody } from './body.js';

/** One auth key, or several while a key rotation is in flight. */
export type AuthKeys = string | readonly string[];

const SIGNATURE = /^[0-9a-f]{64}$/;
const utf8 = new TextEncoder();

interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: string): { update(data: string | Uint8Array): { digest(encoding: 'hex'): string } };
}

// node:crypto where the runtime has it (Node, Bun, Deno): OpenSSL's HMAC is
// several times faster than JavaScript's on large bodies. getBuiltinModule
// loads it without an import, so this module also loads where there is no
// node:crypto (workerd, browsers) and uses @noble/hashes there.
const nodeCrypto: NodeCrypto | undefined = (() => {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    return (proc?.getBuiltinModule?.('crypto') as NodeCrypto | undefined) ?? undefined;
  } catch {
    return undefined;
  }
})();

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const toHex = (bytes: Uint8Array) => {
  let hex = '';
  for (const byte of bytes) hex += HEX[byte];
  return hex;
};

/** Lowercase hex HMAC-SHA256 of `body` keyed with `key`, synchronously. */
function hmacHex(body: string | Uint8Array, key: string): string {
  if (nodeCrypto) return nodeCrypto.createHmac('sha256', key).update(body).digest('hex');
  return toHex(hmac(sha256, utf8.encode(key), typeof body === 'string' ? utf8.encode(body) : body));
}

/** The same with Web Crypto where node:crypto is absent: native speed on workerd and in browsers. */
async function hmacHexAsync(body: string | Uint8Array, key: string): Promise<string> {
  const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (nodeCrypto || !subtle) return hmacHex(body, key);
  const cryptoKey = await subtle.importKey('raw', utf8.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const data = typeof body === 'string' ? utf8.encode(body) : body;
  return toHex(new Uint8Array(await subtle.sign('HMAC', cryptoKey, data as Uint8Array<ArrayBuffer>)));
}

/** Compares two 64-character hex strings in time independent of where they differ. */
function sameHex(a: string, b: string): boolean {
  let diff = 0;
  for (let i = 0; i < 64; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The `X-SIGNATURE` of a webhook body: lowercase hex HMAC-SHA256 of the raw
 * body, keyed with the partner's auth key.
 */
export function signWebhookPayload(rawBody: RawBody, authKey: string): string {
  const body = bodyView(rawBody);
  if (body === null) throw new TypeError('signWebhookPayload: rawBody must be a string, Uint8Array, ArrayBuffer or DataView');
  if (typeof authKey !== 'string' || authKey === '') {
    throw new TypeError('signWebhookPayload: authKey must be a non-empty string');
  }
  return hmacHex(body, authKey);
}

/** The keys worth trying: none when `authKey` is neither a key nor a list of keys. */
export function usableKeys(authKey: unknown): string[] {
  const keys: unknown[] = typeof authKey === 'string' ? [authKey] : Array.isArray(authKey) ? authKey : [];
  return keys.filter((key): key is string => typeof key === 'string' && key !== '');
}

/**
 * Whether `signature` is the exact `X-SIGNATURE` of `rawBody` under the auth
 * key, or under any of the keys given as a list (a rotation with
 * `POST /auth-keys` invalidates the old key at once, while deliveries signed
 * with it may still be in flight or retried).
 *
 * Never throws: a missing, empty, non-hex, short or wrong signature, a body
 * that is not a string or bytes, or no usable key all give `false`. The
 * comparison takes the same time wherever the signatures differ.
 */
export function verifyWebhookSignature(rawBody: RawBody, signature: unknown, authKey: AuthKeys): boolean {
  try {
    // The length first: cheaper than the pattern on the common single-key path.
    if (typeof signature !== 'string' || signature.length !== 64 || !SIGNATURE.test(signature)) return false;
    const body = bodyView(rawBody);
    if (body === null) return false;
    // One key is the common case: no list is built for it.
    if (typeof authKey === 'string') return authKey !== '' && sameHex(hmacHex(body, authKey), signature);
    let match = false;
    // Every key is tried, so the time taken does not tell which one matched.
    for (const key of usableKeys(authKey)) if (sameHex(hmacHex(body, key), signature)) match = true;
    return match;
  } catch {
    // A detached ArrayBuffer, a hostile key list: not a proof of origin.
    return false;
  }
}

/**
 * `verifyWebhookSignature` for runtimes without node:crypto, where Web Crypto
 * is fast but async. Never rejects.
 */
export async function verifyWebhookSignatureAsync(rawBody: RawBody, signature: unknown, authKey: AuthKeys): Promise<boolean> {
  try {
    if (typeof signature !== 'string' || !SIGNATURE.test(signature)) return false;
    const body = bodyView(rawBody);
    if (body === null) return false;
    let match = false;
    for (const key of usableKeys(authKey)) if (sameHex(await hmacHexAsync(body, key), signature)) match = true;
    return match;
  } catch {
    return false;
  }
}
