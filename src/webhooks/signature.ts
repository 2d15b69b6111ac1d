// The X-SIGNATURE HMAC-SHA256 on the platform's own crypto (W2: reviewed, constant-time where it compares):
// node:crypto for the synchronous functions, Web Crypto for the asynchronous ones.
import { bodyView, type RawBody } from './body.js';
import type { SignatureProblem } from './errors.js';

export type { RawBody } from './body.js';

/** One auth key, or a list of up to 8 while a key rotation is in flight (a longer list verifies nothing). */
export type AuthKeys = string | readonly string[];

/** The most keys a list may hold: a rotation needs a few; the bound keeps a length of 2^32−1 from hanging. */
export const MAX_AUTH_KEYS = 8;

const utf8 = /* @__PURE__ */ new TextEncoder();
const HMAC = { name: 'HMAC', hash: 'SHA-256' };
const utf8Text = /* @__PURE__ */ new TextDecoder('utf-8', { ignoreBOM: true });

interface NodeCrypto {
  createHmac(
    algorithm: 'sha256',
    key: string,
  ): { update(data: string | Uint8Array): { digest(): Uint8Array; digest(encoding: 'hex'): string } };
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

/** node:crypto once found: a lookup per call costs a receiver of small webhooks a few per cent. */
let found: NodeCrypto | undefined;

/**
 * node:crypto, reached without an import so that the module loads where there is none (getBuiltinModule: Node ≥ 20.16,
 * Bun, Deno); there, a TypeError saying what to call instead.
 */
export function requireNodeCrypto(caller: string, instead: string): NodeCrypto {
  try {
    found ??= (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
      'node:crypto',
    ) as NodeCrypto | undefined;
  } catch {
    // A process object that refuses is no node:crypto.
  }
  if (found) return found;
  throw new TypeError(
    `${caller} is synchronous and needs node:crypto, which this runtime does not have (Cloudflare Workers without nodejs_compat, browsers): ${instead}`,
  );
}

/** The non-empty keys of a key or a list of 1 to MAX_AUTH_KEYS strings; null for anything else, whatever it throws. */
function authKeyList(authKey: unknown): string[] | null {
  try {
    const list: unknown[] = typeof authKey === 'string' ? [authKey] : Array.isArray(authKey) ? authKey : [];
    // The length read once, as a number, and bounded before any entry is read: a list claiming 2^32−1 costs nothing.
    const length = Number(list.length);
    if (!(length >= 1 && length <= MAX_AUTH_KEYS)) return null;
    // Each entry read once (a getter may answer differently the second time); a hole is no string.
    const keys = Array.from({ length }, (_, i) => list[i]);
    if (keys.some((key) => typeof key !== 'string')) return null;
    const usable = (keys as string[]).filter((key) => key !== '');
    return usable.length ? usable : null;
  } catch {
    return null;
  }
}

/** The `X-SIGNATURE` the service sends: 64 lowercase hex digits (an upper-case digest is not its signature). */
const SIGNATURE_FORM = /^[0-9a-f]{64}$/;

/** The 32 bytes a signature of 64 lowercase hex digits stands for; null for any other value. */
function signatureBytes(signature: unknown): Uint8Array<ArrayBuffer> | null {
  if (typeof signature !== 'string' || !SIGNATURE_FORM.test(signature)) return null;
  return Uint8Array.from({ length: 32 }, (_, i) => Number.parseInt(signature.slice(2 * i, 2 * i + 2), 16));
}

/**
 * What a verification works on, or null when the arguments cannot match. The caller reads the key list once, so a
 * list whose getters answer differently the second time cannot pass one check and fail the next.
 */
function verifiable(rawBody: unknown, signature: unknown, keys: string[] | null) {
  const expected = signatureBytes(signature);
  if (!expected || !keys) return null;
  // Null for a body that is neither text nor bytes; a detached buffer or a hostile view throws.
  const body = bodyView(rawBody);
  return body === null ? null : { body, expected, keys };
}

/** Why the signature cannot be checked at all, before any HMAC; null when it can. */
function formProblem(signature: unknown, keys: string[] | null): SignatureProblem | null {
  if (signature === undefined || signature === null || signature === '') return 'missing';
  if (typeof signature !== 'string' || !SIGNATURE_FORM.test(signature)) return 'malformed';
  return keys ? null : 'no-key';
}

/** Whether any key signs `rawBody` as `signature` says, on node:crypto; false on any error of the arguments. */
function signedWithAnySync(crypto: NodeCrypto, rawBody: unknown, signature: unknown, keys: string[] | null): boolean {
  try {
    const given = verifiable(rawBody, signature, keys);
    if (!given) return false;
    const hmac = (key: string) => crypto.createHmac('sha256', key).update(given.body).digest();
    // Every key is tried, so the time taken does not tell which one matched.
    return given.keys.map((key) => crypto.timingSafeEqual(hmac(key), given.expected)).includes(true);
  } catch {
    // A detached ArrayBuffer, a hostile view: not a proof of origin.
    return false;
  }
}

/** The body and key `signWebhookPayload` and `signWebhookPayloadAsync` sign with, or a TypeError naming the caller. */
function signable(rawBody: unknown, authKey: unknown, caller: string): string | Uint8Array {
  const body = bodyView(rawBody);
  if (body === null) throw new TypeError(`${caller}: rawBody must be a string, Uint8Array, ArrayBuffer or DataView`);
  if (typeof authKey !== 'string' || authKey === '')
    throw new TypeError(`${caller}: authKey must be a non-empty string`);
  return body;
}

/**
 * The `X-SIGNATURE` of a webhook body: lowercase hex HMAC-SHA256 of the raw body, keyed with the partner's auth key.
 * Synchronous, on node:crypto: throws a `TypeError` where the runtime has none, and for a body that is not a string or
 * bytes or a key that is not a non-empty string.
 */
export function signWebhookPayload(rawBody: RawBody, authKey: string): string {
  const crypto = requireNodeCrypto(
    'signWebhookPayload',
    'use await signWebhookPayloadAsync(…), which takes the same arguments and signs with Web Crypto',
  );
  const body = signable(rawBody, authKey, 'signWebhookPayload');
  return crypto.createHmac('sha256', authKey).update(body).digest('hex');
}

/** The HMAC key of the key that signed last: an import per call cost the local sandbox's delivery 10% of its CPU. */
let lastSigningKey: { authKey: string; key: CryptoKey } | undefined;

async function signingKey(subtle: SubtleCrypto, authKey: string): Promise<CryptoKey> {
  if (lastSigningKey?.authKey === authKey) return lastSigningKey.key;
  const key = await subtle.importKey('raw', utf8.encode(authKey), HMAC, false, ['sign']);
  lastSigningKey = { authKey, key };
  return key;
}

/**
 * `signWebhookPayload` on Web Crypto, for every runtime (Cloudflare Workers, browsers, Node, Bun, Deno): the
 * `X-SIGNATURE` the service sends, lowercase hex HMAC-SHA256 of the raw body under the auth key. Rejects with a
 * `TypeError` for a body that is not a string or bytes, a key that is not a non-empty string, or where the runtime has
 * no Web Crypto (a browser page that is not a secure context).
 */
export async function signWebhookPayloadAsync(rawBody: RawBody, authKey: string): Promise<string> {
  const subtle = requireWebCrypto('signWebhookPayloadAsync');
  const body = signable(rawBody, authKey, 'signWebhookPayloadAsync');
  const mac = await subtle.sign('HMAC', await signingKey(subtle, authKey), webCryptoBytes(body));
  return Array.from(new Uint8Array(mac), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether `signature` is the exact `X-SIGNATURE` of `rawBody` under the auth key, or under any key of a list of at most
 * 8 (a rotation with `POST /auth-keys` invalidates the old key at once, while deliveries signed with it may still be in
 * flight or retried).
 *
 * Synchronous, on node:crypto (Node, Bun, Deno): where the runtime has none (Cloudflare Workers without
 * `nodejs_compat`, browsers) it throws a `TypeError`; use `verifyWebhookSignatureAsync` there. Otherwise never throws:
 * a missing, empty, non-hex, short or wrong signature, a body that is not a string or bytes, or a key that is not a
 * non-empty string or a list of 1 to 8 strings all give `false`. The comparison takes the same time wherever the
 * signatures differ.
 */
export function verifyWebhookSignature(rawBody: RawBody, signature: unknown, authKey: AuthKeys): boolean {
  const crypto = requireNodeCrypto(
    'verifyWebhookSignature',
    'use await verifyWebhookSignatureAsync(…), which takes the same arguments and verifies with Web Crypto',
  );
  return signedWithAnySync(crypto, rawBody, signature, authKeyList(authKey));
}

/**
 * Why `verifyWebhookSignature` would refuse, or null when it accepts: what `parseWebhookEvent` and `webhooks verify`
 * tell. A missing, malformed or keyless signature is named before any HMAC; synchronous, on node:crypto.
 */
export function signatureProblem(rawBody: RawBody, signature: unknown, authKey: AuthKeys): SignatureProblem | null {
  const keys = authKeyList(authKey);
  const problem = formProblem(signature, keys);
  if (problem) return problem;
  const crypto = requireNodeCrypto(
    'signatureProblem',
    'in a fetch handler use await verifyWebhookRequest(request, authKey), whose WebhookSignatureError names the problem, on Web Crypto',
  );
  return signedWithAnySync(crypto, rawBody, signature, keys) ? null : 'mismatch';
}

/** `signatureProblem` on Web Crypto: what `verifyWebhookRequest` tells. */
export async function signatureProblemAsync(
  rawBody: RawBody,
  signature: unknown,
  authKey: AuthKeys,
): Promise<SignatureProblem | null> {
  const keys = authKeyList(authKey);
  const problem = formProblem(signature, keys);
  if (problem) return problem;
  const subtle = requireWebCrypto('signatureProblemAsync');
  return (await signedWithAny(subtle, rawBody, signature, keys)) ? null : 'mismatch';
}

/** Web Crypto's SubtleCrypto, or a TypeError saying where it is missing and what to do. */
export function requireWebCrypto(caller: string): SubtleCrypto {
  const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (subtle) return subtle;
  throw new TypeError(
    `${caller} needs Web Crypto (crypto.subtle), which browsers give only to https: and localhost pages`,
  );
}

/** The body as Web Crypto takes it: a view over a SharedArrayBuffer, which node:crypto reads, is copied (Web Crypto refuses it). */
function webCryptoBytes(body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  return (
    typeof body === 'string' ? utf8.encode(body) : body.buffer instanceof ArrayBuffer ? body : body.slice()
  ) as Uint8Array<ArrayBuffer>;
}

/** `signedWithAnySync` on Web Crypto. */
async function signedWithAny(subtle: SubtleCrypto, rawBody: unknown, signature: unknown, keys: string[] | null) {
  try {
    const given = verifiable(rawBody, signature, keys);
    if (!given) return false;
    const data = webCryptoBytes(given.body);
    let match = false;
    for (const key of given.keys) {
      const hmacKey = await subtle.importKey('raw', utf8.encode(key), HMAC, false, ['verify']);
      // verify compares in constant time, where comparing sign's output would be ours to get right.
      if (await subtle.verify('HMAC', hmacKey, given.expected, data)) match = true;
    }
    return match;
  } catch {
    return false;
  }
}

/**
 * `verifyWebhookSignature` on Web Crypto, for every runtime (Cloudflare Workers, browsers, Node, Bun, Deno). Never
 * rejects for its arguments; rejects with a `TypeError` where the runtime has no Web Crypto (a browser page that is not
 * a secure context).
 */
export async function verifyWebhookSignatureAsync(
  rawBody: RawBody,
  signature: unknown,
  authKey: AuthKeys,
): Promise<boolean> {
  return signedWithAny(requireWebCrypto('verifyWebhookSignatureAsync'), rawBody, signature, authKeyList(authKey));
}

/** The TypeError for a `request` whose `X-SIGNATURE` or body cannot be read: no Request, or its body read already. */
export const notARequest = (caller: string, cause: unknown) =>
  new TypeError(`${caller}: request must be a Web Request (the handler's own, before its body is read)`, { cause });

/**
 * The smallest receiver: the body of a Web `Request` as text when its `X-SIGNATURE` proves the service sent it, `null`
 * when not (answer 401). For a handler that forwards or stores webhooks, or reads them without the payload checks;
 * `verifyWebhookRequest` also parses and checks, and says why it refuses. The text is the body's, a leading byte order
 * mark kept, so it verifies again as it is. Uses Web Crypto; rejects only with a `TypeError`: when given something
 * other than a `Request`, when its body or `X-SIGNATURE` cannot be read (read already, the connection lost), or where
 * the runtime has no Web Crypto (a browser page that is not a secure context).
 */
export async function verifyWebhookRequestBody(request: Request, authKey: AuthKeys): Promise<string | null> {
  const caller = 'verifyWebhookRequestBody';
  const subtle = requireWebCrypto(caller);
  let signature: string | null;
  let body: ArrayBuffer;
  try {
    signature = request.headers.get('x-signature');
    body = await request.arrayBuffer();
  } catch (err) {
    // Not a Request, its body read already, or the connection lost.
    throw notARequest(caller, err);
  }
  // signedWithAny reads only real bytes: an arrayBuffer() that answers a look-alike proves nothing.
  return (await signedWithAny(subtle, body, signature, authKeyList(authKey))) ? utf8Text.decode(body) : null;
}
