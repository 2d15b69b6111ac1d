import { type RawBody } from './body.js';
export type { RawBody } from './body.js';
/** One auth key, or several while a key rotation is in flight. */
export type AuthKeys = string | readonly string[];
/**
 * The `X-SIGNATURE` of a webhook body: lowercase hex HMAC-SHA256 of the raw
 * body, keyed with the partner's auth key.
 */
export declare function signWebhookPayload(rawBody: RawBody, authKey: string): string;
/** The keys worth trying: none when `authKey` is neither a key nor a list of keys. */
export declare function usableKeys(authKey: unknown): string[];
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
export declare function verifyWebhookSignature(rawBody: RawBody, signature: unknown, authKey: AuthKeys): boolean;
/**
 * `verifyWebhookSignature` for runtimes without node:crypto, where Web Crypto
 * is fast but async. Never rejects.
 */
export declare function verifyWebhookSignatureAsync(rawBody: RawBody, signature: unknown, authKey: AuthKeys): Promise<boolean>;
/** Throws unless `request` is a Web Request whose body can still be read. */
export declare function assertRequest(request: unknown, caller: string): asserts request is Request;
/**
 * The smallest receiver: the body of a Web `Request` as text when its
 * `X-SIGNATURE` proves the service sent it, `null` when not (answer 401). For
 * a handler that forwards or stores webhooks, or reads them without the
 * payload checks; `verifyWebhookRequest` also parses and checks, and says
 * why it refuses. Uses node:crypto or Web Crypto; rejects with a `TypeError`
 * when given something other than a `Request`, or where neither exists (a
 * browser page that is not a secure context: use `verifyWebhookSignature`).
 */
export declare function verifyWebhookRequestBody(request: Request, authKey: AuthKeys): Promise<string | null>;
