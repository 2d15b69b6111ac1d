// @verification-service/contracts/webhooks: check, parse and type the webhooks the service sends. No node: import and
// no Buffer, so it loads on Node, Bun, Deno, workerd and in browsers; a receiver that only verifies bundles no parser.
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
