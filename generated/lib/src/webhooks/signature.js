// @verification-service/contracts/webhooks, signatures: the X-SIGNATURE
// HMAC-SHA256 on the platform's own crypto, as Stripe's SDK does. The
// synchronous functions use node:crypto (Node, Bun, Deno) and throw a
// TypeError naming the asynchronous one where there is none (workerd without
// nodejs_compat, browsers); the asynchronous ones use Web Crypto. The package
// owns no hash: the platform's is reviewed, constant-time where it compares,
// and fast (W2).
import { bodyView } from './body.js';
/**
 * The most keys a list may hold: the active key and the previous ones around
 * a rotation need a few; a longer list is a mistake, and bounding it keeps an
 * array-like of length 2^32−1 from hanging a receiver.
 */
export const MAX_AUTH_KEYS = 8;
const utf8 = /* @__PURE__ */ new TextEncoder();
/** node:crypto once found: a lookup per call costs a receiver of small webhooks a few per cent. */
let found;
/**
 * node:crypto for a synchronous function, reached without an import so that
 * the module loads where there is none (getBuiltinModule: Node ≥ 20.16, Bun,
 * Deno); there, a TypeError saying what to call instead: Web Crypto, the
 * only crypto there, is asynchronous.
 */
export function requireNodeCrypto(caller, instead) {
    try {
        found ??= globalThis.process?.getBuiltinModule?.('node:crypto');
    }
    catch {
        // A process object that refuses is no node:crypto.
    }
    if (found)
        return found;
    throw new TypeError(`${caller} is synchronous and needs node:crypto, which this runtime does not have (Cloudflare Workers without nodejs_compat, browsers): ${instead}`);
}
/**
 * The keys of `authKey` when it is a key or a list of 1 to MAX_AUTH_KEYS
 * strings, empty ones left out (an empty key is no secret); null for
 * anything else, without throwing whatever it is (a Proxy, throwing getters).
 */
export function authKeyList(authKey) {
    try {
        const list = typeof authKey === 'string' ? [authKey] : Array.isArray(authKey) ? authKey : [];
        // The length read once, as a number, and bounded before any entry is read: a list claiming 2^32−1 costs nothing.
        const length = Number(list.length);
        if (!(length >= 1 && length <= MAX_AUTH_KEYS))
            return null;
        // Each entry read once (a getter may answer differently the second time); a hole is no string.
        const keys = Array.from({ length }, (_, i) => list[i]);
        if (keys.some((key) => typeof key !== 'string'))
            return null;
        const usable = keys.filter((key) => key !== '');
        return usable.length ? usable : null;
    }
    catch {
        return null;
    }
}
/** The 32 bytes a signature of 64 lowercase hex digits stands for; null for any other value. */
function signatureBytes(signature) {
    if (typeof signature !== 'string' || signature.length !== 64)
        return null;
    const bytes = new Uint8Array(32);
    for (let i = 0; i < 64; i++) {
        // Lower case only: an upper-case digest is not the signature the service sends.
        const digit = '0123456789abcdef'.indexOf(signature[i]);
        if (digit < 0)
            return null;
        bytes[i >> 1] |= i & 1 ? digit : digit << 4;
    }
    return bytes;
}
/** What a verification works on, or null when the arguments cannot match (any of them unusable). */
function verifiable(rawBody, signature, authKey) {
    const expected = signatureBytes(signature);
    const keys = authKeyList(authKey);
    if (!expected || !keys)
        return null;
    // Null for a body that is neither text nor bytes; a detached buffer or a hostile view throws.
    const body = bodyView(rawBody);
    return body === null ? null : { body, expected, keys };
}
/**
 * The `X-SIGNATURE` of a webhook body: lowercase hex HMAC-SHA256 of the raw
 * body, keyed with the partner's auth key. Synchronous, on node:crypto:
 * throws a `TypeError` where the runtime has none, and for a body that is
 * not a string or bytes or a key that is not a non-empty string.
 */
export function signWebhookPayload(rawBody, authKey) {
    const crypto = requireNodeCrypto('signWebhookPayload', 'sign where the webhooks are sent from (Node, Bun, Deno)');
    const body = bodyView(rawBody);
    if (body === null)
        throw new TypeError('signWebhookPayload: rawBody must be a string, Uint8Array, ArrayBuffer or DataView');
    if (typeof authKey !== 'string' || authKey === '') {
        throw new TypeError('signWebhookPayload: authKey must be a non-empty string');
    }
    return crypto.createHmac('sha256', authKey).update(body).digest('hex');
}
/**
 * Whether `signature` is the exact `X-SIGNATURE` of `rawBody` under the auth
 * key, or under any key of a list of at most 8 (a rotation with
 * `POST /auth-keys` invalidates the old key at once, while deliveries signed
 * with it may still be in flight or retried).
 *
 * Synchronous, on node:crypto (Node, Bun, Deno): where the runtime has none
 * (Cloudflare Workers without `nodejs_compat`, browsers) it throws a
 * `TypeError`; use `verifyWebhookSignatureAsync` there. Otherwise never
 * throws: a missing, empty, non-hex, short or wrong signature, a body that
 * is not a string or bytes, or a key that is not a non-empty string or a
 * list of 1 to 8 strings all give `false`. The comparison takes the same
 * time wherever the signatures differ.
 */
export function verifyWebhookSignature(rawBody, signature, authKey) {
    const crypto = requireNodeCrypto('verifyWebhookSignature', 'use await verifyWebhookSignatureAsync(…), which takes the same arguments and verifies with Web Crypto');
    try {
        const given = verifiable(rawBody, signature, authKey);
        if (!given)
            return false;
        let match = false;
        // Every key is tried, so the time taken does not tell which one matched.
        for (const key of given.keys)
            if (crypto.timingSafeEqual(crypto.createHmac('sha256', key).update(given.body).digest(), given.expected))
                match = true;
        return match;
    }
    catch {
        // A detached ArrayBuffer, a hostile view: not a proof of origin.
        return false;
    }
}
/** Web Crypto's SubtleCrypto, or a TypeError saying where it is missing and what to do. */
export function requireWebCrypto(caller) {
    const subtle = globalThis.crypto?.subtle;
    if (subtle)
        return subtle;
    throw new TypeError(`${caller} needs Web Crypto (crypto.subtle), which browsers give only to https: and localhost pages`);
}
/** Whether any usable key signs `rawBody` as `signature` says, every key tried, on Web Crypto; false on any error of the arguments. */
async function signedWithAny(subtle, rawBody, signature, authKey) {
    try {
        const given = verifiable(rawBody, signature, authKey);
        if (!given)
            return false;
        const { body } = given;
        // Web Crypto refuses a view over a SharedArrayBuffer, which node:crypto verifies: such bytes are copied.
        const data = (typeof body === 'string' ? utf8.encode(body) : body.buffer instanceof ArrayBuffer ? body : body.slice());
        let match = false;
        for (const key of given.keys) {
            const hmacKey = await subtle.importKey('raw', utf8.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
            // verify compares in constant time, where comparing sign's output would be ours to get right.
            if (await subtle.verify('HMAC', hmacKey, given.expected, data))
                match = true;
        }
        return match;
    }
    catch {
        return false;
    }
}
/**
 * `verifyWebhookSignature` on Web Crypto, for every runtime (Cloudflare
 * Workers, browsers, Node, Bun, Deno). Never rejects for its arguments;
 * rejects with a `TypeError` where the runtime has no Web Crypto (a browser
 * page that is not a secure context).
 */
export async function verifyWebhookSignatureAsync(rawBody, signature, authKey) {
    return signedWithAny(requireWebCrypto('verifyWebhookSignatureAsync'), rawBody, signature, authKey);
}
/** Throws a TypeError unless `request` is a Web Request whose body can still be read. */
export function assertRequest(request, caller) {
    let usable = false;
    try {
        const r = request;
        usable = typeof r?.headers?.get === 'function' && typeof r.arrayBuffer === 'function';
    }
    catch {
        // A hostile object (throwing getters, a revoked Proxy) is no Request either.
    }
    if (!usable)
        throw new TypeError(`${caller}: request must be a Web Request (the handler's own, before its body is read)`);
}
/**
 * The smallest receiver: the body of a Web `Request` as text when its
 * `X-SIGNATURE` proves the service sent it, `null` when not (answer 401). For
 * a handler that forwards or stores webhooks, or reads them without the
 * payload checks; `verifyWebhookRequest` also parses and checks, and says
 * why it refuses. Uses Web Crypto; rejects with a `TypeError` when given
 * something other than a `Request`, or where the runtime has no Web Crypto
 * (a browser page that is not a secure context).
 */
export async function verifyWebhookRequestBody(request, authKey) {
    assertRequest(request, 'verifyWebhookRequestBody');
    const subtle = requireWebCrypto('verifyWebhookRequestBody');
    const body = new Uint8Array(await request.arrayBuffer());
    return (await signedWithAny(subtle, body, request.headers.get('x-signature'), authKey)) ? new TextDecoder().decode(body) : null;
}
