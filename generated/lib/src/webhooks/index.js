// @verification-service/contracts/webhooks: check, parse and type the webhooks the
// service sends. Portable: no node: import and no Buffer, so it runs
// unchanged on Node, Bun, Deno, workerd and in browsers; node:crypto is used
// where the runtime has it, Web Crypto or a small HMAC-SHA256 where not. Import
// only what you use: a receiver that only verifies bundles without the
// payload checks.
export { signWebhookPayload, verifyWebhookRequestBody, verifyWebhookSignature, verifyWebhookSignatureAsync, } from './signature.js';
export { isKnownWebhookEvent, parseWebhookEvent, signatureProblem, verifyWebhookRequest, webhookPayloadIssues } from './parse.js';
export { WebhookPayloadError, WebhookSignatureError } from './errors.js';
