// verification-contracts/webhooks: check, parse and type the webhooks the
// service sends. Runs on node:crypto and generated validation code only.
export { signWebhookPayload, verifyWebhookSignature } from './signature.js';
export { parseWebhookEvent, signatureProblem, webhookPayloadIssues } from './parse.js';
export { WebhookPayloadError, WebhookSignatureError } from './errors.js';
