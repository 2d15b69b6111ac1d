export { signWebhookPayload, verifyWebhookRequestBody, verifyWebhookSignature, verifyWebhookSignatureAsync, type AuthKeys, type RawBody, } from './signature.js';
export { isKnownWebhookEvent, parseWebhookEvent, signatureProblem, verifyWebhookRequest, webhookPayloadIssues } from './parse.js';
export { WebhookPayloadError, WebhookSignatureError, type PayloadIssue, type SignatureProblem } from './errors.js';
export type * from './events.js';
