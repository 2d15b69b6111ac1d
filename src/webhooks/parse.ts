import { validatorsByEventType, type WebhookValidator } from '../../generated/validators/partner-webhooks.js';
import { WebhookPayloadError, WebhookSignatureError, type PayloadIssue, type SignatureProblem } from './errors.js';
import type { WebhookEvent } from './events.js';
import { verifyWebhookSignature, type AuthKeys, type RawBody } from './signature.js';

type AjvError = NonNullable<WebhookValidator['errors']>[number];
const validateByType = validatorsByEventType;
const EVENT_TYPES = Object.keys(validateByType);

const SIGNATURE_MESSAGES: Record<SignatureProblem, string> = {
  missing: 'X-SIGNATURE is missing or empty',
  malformed: 'X-SIGNATURE is not 64 lowercase hexadecimal characters',
  mismatch:
    'X-SIGNATURE does not match the body: the body was changed or re-serialized (verify the raw bytes as received), or it was signed with another auth key',
  'no-key': 'no auth key was given to verify X-SIGNATURE with',
};

/** Why `verifyWebhookSignature` would refuse, or null when it accepts. */
export function signatureProblem(rawBody: RawBody, signature: unknown, authKey: AuthKeys): SignatureProblem | null {
  if (signature === undefined || signature === null || signature === '') return 'missing';
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return 'malformed';
  const keys = typeof authKey === 'string' ? [authKey] : Array.isArray(authKey) ? authKey : [];
  if (!keys.some((key) => typeof key === 'string' && key !== '')) return 'no-key';
  return verifyWebhookSignature(rawBody, signature, authKey) ? null : 'mismatch';
}

/** Checks a parsed body against the partner document's webhook schemas. */
export function webhookPayloadIssues(payload: unknown): PayloadIssue[] {
  const eventType = (payload as { eventType?: unknown } | null)?.eventType;
  if (typeof eventType !== 'string' || !Object.hasOwn(validateByType, eventType)) {
    return [{ path: '/eventType', message: `must be one of ${EVENT_TYPES.join(', ')}` }];
  }
  // The event's own schema names the real problem; its const eventType makes
  // it the only branch of the union that could match.
  const validate = validateByType[eventType];
  if (validate(payload)) return [];
  return (validate.errors ?? []).map((e) => ({
    path: e.instancePath,
    message: [e.message ?? 'is invalid', allowed(e)].filter(Boolean).join(' '),
  }));
}

function allowed(error: AjvError): string {
  const p = error.params ?? {};
  if ('allowedValue' in p) return `(${JSON.stringify(p.allowedValue)})`;
  if ('allowedValues' in p) return `(${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')})`;
  if ('additionalProperty' in p) return `(${String(p.additionalProperty)})`;
  return '';
}

function decode(rawBody: RawBody): string {
  return typeof rawBody === 'string' ? rawBody : new TextDecoder('utf-8', { fatal: true }).decode(rawBody);
}

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
export function parseWebhookEvent(rawBody: RawBody, signature: unknown, authKey: AuthKeys): WebhookEvent {
  const problem = signatureProblem(rawBody, signature, authKey);
  if (problem) throw new WebhookSignatureError(SIGNATURE_MESSAGES[problem], problem);
  let payload: unknown;
  try {
    payload = JSON.parse(decode(rawBody));
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new WebhookPayloadError(`webhook body is not UTF-8 JSON: ${detail}`, [{ path: '', message: detail }]);
  }
  const issues = webhookPayloadIssues(payload);
  if (issues.length) {
    const list = issues.map((i) => `${i.path || '(body)'} ${i.message}`).join('; ');
    throw new WebhookPayloadError(`webhook body does not match the partner contract: ${list}`, issues);
  }
  return payload as WebhookEvent;
}
