// @verification-service/contracts/webhooks: check, parse and type the webhooks the
// service sends. Portable: no node: import and no Buffer, so it loads
// unchanged on Node, Bun, Deno, workerd and in browsers. The synchronous
// functions (verifyWebhookSignature, parseWebhookEvent, signWebhookPayload)
// run on node:crypto and throw a TypeError naming the asynchronous one where
// the runtime has none; the asynchronous ones run on Web Crypto everywhere.
// Import only what you use: a receiver that only verifies bundles without the
// payload checks.
export {
  signatureProblem,
  signWebhookPayload,
  signWebhookPayloadAsync,
  verifyWebhookRequestBody,
  verifyWebhookSignature,
  verifyWebhookSignatureAsync,
  type AuthKeys,
  type RawBody,
} from './signature.js';
export { isKnownWebhookEvent, parseWebhookEvent, verifyWebhookRequest, webhookPayloadIssues } from './parse.js';
export { WebhookPayloadError, WebhookSignatureError, type PayloadIssue, type SignatureProblem } from './errors.js';
export type * from './events.js';
