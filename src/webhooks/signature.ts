import { createHmac, timingSafeEqual } from 'node:crypto';

/** A webhook body exactly as it arrived: the string or the bytes, never re-serialized JSON. */
export type RawBody = string | Uint8Array;

/** One auth key, or several while a key rotation is in flight. */
export type AuthKeys = string | readonly string[];

const SIGNATURE = /^[0-9a-f]{64}$/;

const hmac = (rawBody: RawBody, authKey: string) => createHmac('sha256', authKey).update(rawBody);

/**
 * The `X-SIGNATURE` of a webhook body: lowercase hex HMAC-SHA256 of the raw
 * body, keyed with the partner's auth key.
 */
export function signWebhookPayload(rawBody: RawBody, authKey: string): string {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new TypeError('signWebhookPayload: rawBody must be a string or bytes');
  }
  if (typeof authKey !== 'string' || authKey === '') {
    throw new TypeError('signWebhookPayload: authKey must be a non-empty string');
  }
  return hmac(rawBody, authKey).digest('hex');
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
  if (typeof signature !== 'string' || signature.length !== 64 || !SIGNATURE.test(signature)) return false;
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) return false;
  const given = Buffer.from(signature, 'hex');
  // One key is the common case: no list is built for it.
  if (typeof authKey === 'string') return authKey !== '' && timingSafeEqual(hmac(rawBody, authKey).digest(), given);
  if (!Array.isArray(authKey)) return false;
  let match = false;
  for (const key of authKey) {
    if (typeof key !== 'string' || key === '') continue;
    // Every key is tried, so the time taken does not tell which one matched.
    if (timingSafeEqual(hmac(rawBody, key).digest(), given)) match = true;
  }
  return match;
}
