import { type RawBody } from './body.js';
export type { RawBody } from './body.js';
/** One auth key, or a list of up to 8 while a key rotation is in flight (a longer list verifies nothing). */
export type AuthKeys = string | readonly string[];
/**
 * The most keys a list may hold: the active key and the previous ones around
 * a rotation need a few; a longer list is a mistake, and bounding it keeps an
 * array-like of length 2^32−1 from hanging a receiver.
 */
export declare const MAX_AUTH_KEYS = 8;
interface NodeCrypto {
    createHmac(algorithm: 'sha256', key: string): {
        update(data: string | Uint8Array): {
            digest(): Uint8Array;
            digest(encoding: 'hex'): string;
        };
    };
    timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}
/**
 * node:crypto for a synchronous function, reached without an import so that
 * the module loads where there is none (getBuiltinModule: Node ≥ 20.16, Bun,
 * Deno); there, a TypeError saying what to call instead: Web Crypto, the
 * only crypto there, is asynchronous.
 */
export declare function requireNodeCrypto(caller: string, instead: string): NodeCrypto;
/**
 * The keys of `authKey` when it is a key or a list of 1 to MAX_AUTH_KEYS
 * strings, empty ones left out (an empty key is no secret); null for
 * anything else, without throwing whatever it is (a Proxy, throwing getters).
 */
export declare function authKeyList(authKey: unknown): string[] | null;
/**
 * The `X-SIGNATURE` of a webhook body: lowercase hex HMAC-SHA256 of the raw
 * body, keyed with the partner's auth key. Synchronous, on node:crypto:
 * throws a `TypeError` where the runtime has none, and for a body that is
 * not a string or bytes or a key that is not a non-empty string.
 */
export declare function signWebhookPayload(rawBody: RawBody, authKey: string): string;
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
export declare function verifyWebhookSignature(rawBody: RawBody, signature: unknown, authKey: AuthKeys): boolean;
/** Web Crypto's SubtleCrypto, or a TypeError saying where it is missing and what to do. */
export declare function requireWebCrypto(caller: string): SubtleCrypto;
/**
 * `verifyWebhookSignature` on Web Crypto, for every runtime (Cloudflare
 * Workers, browsers, Node, Bun, Deno). Never rejects for its arguments;
 * rejects with a `TypeError` where the runtime has no Web Crypto (a browser
 * page that is not a secure context).
 */
export declare function verifyWebhookSignatureAsync(rawBody: RawBody, signature: unknown, authKey: AuthKeys): Promise<boolean>;
/** Throws a TypeError unless `request` is a Web Request whose body can still be read. */
export declare function assertRequest(request: unknown, caller: string): asserts request is Request;
/**
 * The smallest receiver: the body of a Web `Request` as text when its
 * `X-SIGNATURE` proves the service sent it, `null` when not (answer 401). For
 * a handler that forwards or stores webhooks, or reads them without the
 * payload checks; `verifyWebhookRequest` also parses and checks, and says
 * why it refuses. Uses Web Crypto; rejects with a `TypeError` when given
 * something other than a `Request`, or where the runtime has no Web Crypto
 * (a browser page that is not a secure context).
 */
export declare function verifyWebhookRequestBody(request: Request, authKey: AuthKeys): Promise<string | null>;
