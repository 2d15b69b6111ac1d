// @verification-service/contracts/webhooks: check, parse and type the webhooks the
// service sends. Portable: no node: import and no Buffer, so it runs
// unchanged on Node, Bun, Deno, workerd and in browsers; node:crypto is used
// where the runtime has it, Web Crypto or @noble/hashes where not.
export { signWebhookPayload, verifyWebhookSignature, verifyWebhookSignatureAsync, type AuthKeys, type RawBody } from './signature.js';
export { isKnownWebhookEvent, parseWebhookEvent, signatureProblem, verifyWebhookRequest, webhookPayloadIssues } from './parse.js';
export { WebhookPayloadError, WebhookSignatureError, type PayloadIssue, type SignatureProblem } from './errors.js';
export type * from './events.js';
