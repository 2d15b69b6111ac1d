// @verification-service/contracts/webhooks: check, parse and type the webhooks the
// service sends. Portable: no node: import and no Buffer, so it loads
// unchanged on Node, Bun, Deno, workerd and in browsers. The synchronous
// functions (verifyWebhookSignature, parseWebhookEvent, signWebhookPayload)
// run on node:crypto and throw a TypeError naming the asynchronous one where
// the runtime has none; the asynchronous ones run on Web Crypto everywhere.
// Import only what you use: a receiver that only verifies bundles without the
// payload checks.
export { signWebhookPayload, verifyWebhookRequestBody, verifyWebhookSignature, verifyWebhookSignatureAsync, } from './signature.js';
export { isKnownWebhookEvent, parseWebhookEvent, signatureProblem, verifyWebhookRequest, webhookPayloadIssues } from './parse.js';
export { WebhookPayloadError, WebhookSignatureError } from './errors.js';
