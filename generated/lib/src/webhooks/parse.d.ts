import { type RawBody } from './body.js';
import { type PayloadIssue, type SignatureProblem } from './errors.js';
import type { ReceivedWebhookEvent, WebhookEvent } from './events.js';
import { type AuthKeys } from './signature.js';
/** The envelope every webhook has, whatever its type (each event's schema requires these). */
export declare const ENVELOPE_FIELDS: readonly ['eventId', 'eventType', 'dataType', 'createdAt', 'data'];
/** Why `verifyWebhookSignature` would refuse, or null when it accepts. */
export declare function signatureProblem(rawBody: RawBody, signature: unknown, authKey: AuthKeys): SignatureProblem | null;
/**
 * Checks a parsed body against the partner document's webhook schemas. An
 * event type the package does not know is no issue (the service may add
 * one): only its envelope is checked. In a known event, a value outside a
 * documented list (a new verification status) is no issue either: a receiver
 * must not fail on a value the service adds (P38).
 */
export declare function webhookPayloadIssues(payload: unknown): PayloadIssue[];
/** Whether this version of the package knows the event type (and so validates its data). */
export declare const isKnownEventType: (eventType: unknown) => boolean;
/** Whether a parsed event is one of the known types (not an `UnknownWebhookEvent`). */
export declare const isKnownWebhookEvent: (event: ReceivedWebhookEvent) => event is WebhookEvent;
/**
 * Verifies, parses and validates a webhook. Returns the event, typed as a
 * union discriminated by `eventType`, so that `data` narrows; an event type
 * this version of the package does not know comes back as an
 * `UnknownWebhookEvent` (answer 200 and ignore it):
 *
 * ```ts
 * const event = parseWebhookEvent(rawBody, req.headers['x-signature'], authKey);
 * switch (event.eventType) {
 *   case 'user.created': event.data.userId; break;
 *   default: // a newer event type
 * }
 * ```
 *
 * Whatever it is given, throws only `WebhookSignatureError`, when the
 * signature does not prove the body came from the service (or no usable key
 * was given), and `WebhookPayloadError`, when the body cannot be read as a
 * string or bytes, is not JSON, or breaks a documented rule of the contract
 * (no `eventId`, a `user` envelope carrying `verification.created`).
 *
 * Synchronous, on node:crypto (Node, Bun, Deno): where the runtime has none
 * (Cloudflare Workers without `nodejs_compat`, browsers) every call throws a
 * `TypeError` saying to use `verifyWebhookRequest`, which verifies with Web Crypto.
 */
export declare function parseWebhookEvent(rawBody: RawBody, signature: unknown, authKey: AuthKeys): ReceivedWebhookEvent;
/**
 * `parseWebhookEvent` for fetch-style handlers (Cloudflare Workers, Next.js
 * route handlers, `Deno.serve`, `Bun.serve`): reads the raw body and
 * `X-SIGNATURE` of a Web `Request` and verifies with Web Crypto, so it runs
 * everywhere. Rejects with the errors `parseWebhookEvent` throws, and with a
 * `TypeError` when given something other than a `Request` or where the
 * runtime has no Web Crypto (a browser page that is not a secure context).
 */
export declare function verifyWebhookRequest(request: Request, authKey: AuthKeys): Promise<ReceivedWebhookEvent>;
