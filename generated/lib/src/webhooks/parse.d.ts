import { type PayloadIssue, type SignatureProblem } from './errors.js';
import type { WebhookEvent } from './events.js';
import { type AuthKeys, type RawBody } from './signature.js';
/** Why `verifyWebhookSignature` would refuse, or null when it accepts. */
export declare function signatureProblem(rawBody: RawBody, signature: unknown, authKey: AuthKeys): SignatureProblem | null;
/** Checks a parsed body against the partner document's webhook schemas. */
export declare function webhookPayloadIssues(payload: unknown): PayloadIssue[];
/**
 * Verifies, parses and validates a webhook. Returns the event, typed as a
 * union discriminated by `eventType`, so that `data` narrows:
 *
 * ```ts
 * const event = parseWebhookEvent(rawBody, req.headers['x-signature'], authKey);
 * if (event.eventType === 'user.created') event.data.userId;
 * ```
 *
 * Throws `WebhookSignatureError` when the signature does not prove the body
 * came from the service, and `WebhookPayloadError` when the body is not JSON
 * or not a webhook of the contract (for example a `user` envelope carrying
 * `verification.created`).
 */
export declare function parseWebhookEvent(rawBody: RawBody, signature: unknown, authKey: AuthKeys): WebhookEvent;
