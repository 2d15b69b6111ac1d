import { bodyView } from './body.js';
import { hmacSha256, toHex } from './sha256.js';
const utf8 = /* @__PURE__ */ new TextEncoder();
const bytesOf = (text) => (typeof text === 'string' ? utf8.encode(text) : text);
// node:crypto where the runtime has it (Node, Bun, Deno): OpenSSL's HMAC is
// several times faster than JavaScript's on large bodies. getBuiltinModule
// loads it without an import, so this module also loads where there is no
// node:crypto (workerd, browsers) and uses ./sha256.js there. Pure: a bundle
// that never verifies drops it.
const nodeCrypto = /* @__PURE__ */ (() => {
    try {
        const proc = globalThis.process;
        return proc?.getBuiltinModule?.('crypto');
    }
    catch {
        return undefined;
    }
})();
/** Lowercase hex HMAC-SHA256 of `body` keyed with `key`, synchronously. */
function hmacHex(body, key) {
    return nodeCrypto ? nodeCrypto.createHmac('sha256', key).update(body).digest('hex') : toHex(hmacSha256(key, body));
}
const webCrypto = () => globalThis.crypto?.subtle;
/**
 * The same natively: node:crypto, else Web Crypto (native speed on workerd
 * and in browsers, but async); null where there is neither (a browser page
 * that is not a secure context).
 */
async function nativeHmacHex(body, key) {
    if (nodeCrypto)
        return nodeCrypto.createHmac('sha256', key).update(body).digest('hex');
    const subtle = webCrypto();
    if (!subtle)
        return null;
    const cryptoKey = await subtle.importKey('raw', utf8.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return toHex(new Uint8Array(await subtle.sign('HMAC', cryptoKey, bytesOf(body))));
}
/** Compares two 64-character hex strings in time independent of where they differ. */
function sameHex(a, b) {
    let diff = 0;
    for (let i = 0; i < 64; i++)
        diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
    return diff === 0;
}
/**
 * The `X-SIGNATURE` of a webhook body: lowercase hex HMAC-SHA256 of the raw
 * body, keyed with the partner's auth key.
 */
export function signWebhookPayload(rawBody, authKey) {
    const body = bodyView(rawBody);
    if (body === null)
        throw new TypeError('signWebhookPayload: rawBody must be a string, Uint8Array, ArrayBuffer or DataView');
    if (typeof authKey !== 'string' || authKey === '') {
        throw new TypeError('signWebhookPayload: authKey must be a non-empty string');
    }
    return hmacHex(body, authKey);
}
/** The keys worth trying: none when `authKey` is neither a key nor a list of keys. */
export function usableKeys(authKey) {
    // One key, or the keys of a list; anything else is no string and drops out.
    return [authKey].flat().filter((key) => typeof key === 'string' && key !== '');
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
export function verifyWebhookSignature(rawBody, signature, authKey) {
    try {
        // Any 64 characters: only the exact lowercase hex digest compares equal.
        if (typeof signature !== 'string' || signature.length !== 64)
            return false;
        // A body that is not a string or bytes (null here) throws below.
        const body = bodyView(rawBody);
        // Every key is tried, so the time taken does not tell which one matched.
        return usableKeys(authKey).reduce((match, key) => sameHex(hmacHex(body, key), signature) || match, false);
    }
    catch {
        // A detached ArrayBuffer, a hostile key list: not a proof of origin.
        return false;
    }
}
/** Whether any usable key signs `body` as `signature` says, every key tried; false on any error. */
async function signedWithAny(rawBody, signature, authKey, hex) {
    try {
        if (typeof signature !== 'string' || signature.length !== 64)
            return false;
        const body = bodyView(rawBody);
        if (body === null)
            return false;
        let match = false;
        for (const key of usableKeys(authKey))
            if (sameHex((await hex(body, key)) ?? '', signature))
                match = true;
        return match;
    }
    catch {
        return false;
    }
}
/**
 * `verifyWebhookSignature` for runtimes without node:crypto, where Web Crypto
 * is fast but async. Never rejects.
 */
export function verifyWebhookSignatureAsync(rawBody, signature, authKey) {
    return signedWithAny(rawBody, signature, authKey, async (body, key) => (await nativeHmacHex(body, key)) ?? hmacHex(body, key));
}
/** Throws unless `request` is a Web Request whose body can still be read. */
export function assertRequest(request, caller) {
    const r = request;
    if (typeof r?.headers?.get !== 'function' || typeof r.arrayBuffer !== 'function') {
        throw new TypeError(`${caller}: request must be a Web Request (the handler's own, before its body is read)`);
    }
}
/**
 * The smallest receiver: the body of a Web `Request` as text when its
 * `X-SIGNATURE` proves the service sent it, `null` when not (answer 401). For
 * a handler that forwards or stores webhooks, or reads them without the
 * payload checks; `verifyWebhookRequest` also parses and checks, and says
 * why it refuses. Uses node:crypto or Web Crypto; rejects with a `TypeError`
 * when given something other than a `Request`, or where neither exists (a
 * browser page that is not a secure context: use `verifyWebhookSignature`).
 */
export async function verifyWebhookRequestBody(request, authKey) {
    assertRequest(request, 'verifyWebhookRequestBody');
    if (!nodeCrypto && !webCrypto())
        throw new TypeError('verifyWebhookRequestBody: this runtime has neither node:crypto nor Web Crypto; use verifyWebhookSignature');
    const body = new Uint8Array(await request.arrayBuffer());
    return (await signedWithAny(body, request.headers.get('x-signature'), authKey, nativeHmacHex)) ? new TextDecoder().decode(body) : null;
}
