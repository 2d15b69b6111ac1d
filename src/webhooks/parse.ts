// @verification-service/contracts/webhooks, parsing: the event in a signed body, checked as the strictness policy asks
// of a receiver (the envelope, the eventType/dataType pair, the documented rules) and no further.
import { webhookSchemas } from '../../generated/validators/partner-webhooks.js';
import { bodyProblem, bodyView, type RawBody, webhookJson } from './body.js';
import { WebhookPayloadError, WebhookSignatureError, type PayloadIssue, type SignatureProblem } from './errors.js';
import type { components } from '../../generated/types/partner.js';
import type { ReceivedWebhookEvent, WebhookEvent } from './events.js';
import { schemaIssues, type SchemaIssue } from './schema-check.js';
import {
  MAX_AUTH_KEYS,
  notARequest,
  requireNodeCrypto,
  requireWebCrypto,
  signatureProblem,
  signatureProblemAsync,
  type AuthKeys,
} from './signature.js';

// What a WebhookSignatureError says for each problem (kept here: a receiver that only verifies bundles none of it).
const SIGNATURE_MESSAGES: Record<SignatureProblem, string> = {
  missing: 'X-SIGNATURE is missing or empty',
  malformed: 'X-SIGNATURE is not 64 lowercase hexadecimal characters',
  mismatch:
    'X-SIGNATURE does not match the body: the body was changed or re-serialized (verify the raw bytes as received), or it was signed with another auth key',
  'no-key': `no usable auth key to verify X-SIGNATURE with: give the key as a non-empty string, or a list of 1 to ${MAX_AUTH_KEYS} keys while rotating`,
};

/**
 * Checks a parsed body against the partner document's webhook schemas. An event type the package does not know is no
 * issue (the service may add one): only its envelope is checked. In a known event, a value outside a documented list (a
 * new verification status) is no issue either: a receiver must not fail on a value the service adds (P38).
 */
export function webhookPayloadIssues(payload: unknown): PayloadIssue[] {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return [{ path: '', message: 'must be a JSON object (a webhook envelope)' }];
  const eventType = (payload as { eventType?: unknown }).eventType;
  if (!isKnownEventType(eventType)) return envelopeIssues(payload as Record<string, unknown>);
  // The event's own schema names the real problem; its const eventType makes
  // it the only branch of the union that could match.
  const { events, defs } = webhookSchemas;
  const { checked, originalIndexes } = withoutAddedVariants(payload);
  return withoutNewValues(schemaIssues(checked, defs[events[eventType as string]], defs)).map(({ path, message }) => ({
    path: originalPath(path, originalIndexes),
    message,
  }));
}

/** Whether this version of the package knows the event type (and so validates its data). */
const isKnownEventType = (eventType: unknown): boolean =>
  typeof eventType === 'string' && Object.hasOwn(webhookSchemas.events, eventType);

/** Whether a parsed event is one of the known types (not an `UnknownWebhookEvent`). */
export const isKnownWebhookEvent = (event: ReceivedWebhookEvent): event is WebhookEvent =>
  isKnownEventType(event.eventType);

// A value outside a documented list inside data is not refused by itself;
// where the list decides a branch (a oneOf, an if), the branch still decides.
const isNewEnumValue = (issue: SchemaIssue) => issue.keyword === 'enum' && issue.path.startsWith('/data/');

/** The issues without those a new listed value raises (P38): its `enum`, and the `anyOf` of a list or `null` alone. */
function withoutNewValues(issues: SchemaIssue[]): SchemaIssue[] {
  const newValueAt = new Set(issues.filter(isNewEnumValue).map((issue) => issue.path));
  const onlyNewValue = (path: string) =>
    issues.every((issue) => issue.path !== path || issue.keyword === 'enum' || issue.keyword === 'anyOf');
  return issues.filter(
    (issue) =>
      !isNewEnumValue(issue) && !(issue.keyword === 'anyOf' && newValueAt.has(issue.path) && onlyNewValue(issue.path)),
  );
}

// The collected requirement types of the partner document; the `satisfies`
// fails to compile when the document gains or loses one.
const REQUIREMENT_TYPES = {
  firstAndLastName: true,
  dateOfBirth: true,
  document: true,
  phoneNumbers: true,
} satisfies Record<components['schemas']['RequirementType'], true>;

/**
 * The payload without collected requirements of a type the package does not know (an addition, P38: nothing inside
 * them is checked), and the payload index of each entry kept. Left out before the check, not filtered after: an entry
 * costs a read of its `type`, so a webhook with thousands of them checks as fast as one without.
 */
function withoutAddedVariants(payload: object): { checked: object; originalIndexes: number[] | null } {
  const data = (payload as { data?: unknown }).data;
  const entries = (data as { collectedRequirements?: unknown } | null | undefined)?.collectedRequirements;
  if (!Array.isArray(entries)) return { checked: payload, originalIndexes: null };
  const kept: unknown[] = [];
  const originalIndexes: number[] = [];
  for (let i = 0; i < entries.length; i++) {
    const type = (entries[i] as { type?: unknown } | null)?.type;
    if (typeof type === 'string' && !Object.hasOwn(REQUIREMENT_TYPES, type)) continue;
    kept.push(entries[i]);
    originalIndexes.push(i);
  }
  if (kept.length === entries.length) return { checked: payload, originalIndexes: null };
  return { checked: { ...payload, data: { ...(data as object), collectedRequirements: kept } }, originalIndexes };
}

const KEPT_ENTRY_PATH = /^\/data\/collectedRequirements\/(\d+)(?=\/|$)/;

/** An issue's path in the checked copy as the path in the payload: a kept entry's index is its index there. */
function originalPath(path: string, originalIndexes: number[] | null): string {
  const kept = originalIndexes && KEPT_ENTRY_PATH.exec(path);
  if (!kept) return path;
  return `/data/collectedRequirements/${originalIndexes[Number(kept[1])]}${path.slice(kept[0].length)}`;
}

/** The envelope every webhook has, whatever its type (each event's schema requires it). */
function envelopeIssues(payload: Record<string, unknown>): PayloadIssue[] {
  const issues: PayloadIssue[] = ['eventId', 'eventType', 'dataType', 'createdAt']
    .filter((field) => typeof payload[field] !== 'string' || payload[field] === '')
    .map((field) => ({ path: `/${field}`, message: 'must be a non-empty string' }));
  const data = payload.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    issues.push({ path: '/data', message: 'must be an object' });
  return issues;
}

/** What an error says, whatever was thrown (a thrown Proxy or a throwing getter says nothing). */
function detailOf(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return 'an error that cannot be read';
  }
}

// Lenient, and the BOM kept: the text a receiver keeps of a verified body it cannot parse.
const lenientUtf8 = /* @__PURE__ */ new TextDecoder('utf-8', { ignoreBOM: true });

/** The event in a body whose signature is proven; a refusal carries the body's text. */
function eventOf(body: string | Uint8Array): ReceivedWebhookEvent {
  const refuse = (message: string, issues: PayloadIssue[]) =>
    new WebhookPayloadError(message, issues, typeof body === 'string' ? body : lenientUtf8.decode(body));
  let payload: unknown;
  try {
    payload = webhookJson(body);
  } catch (err) {
    const detail = detailOf(err);
    throw refuse(`webhook body is not UTF-8 JSON: ${detail}`, [{ path: '', message: detail }]);
  }
  const issues = webhookPayloadIssues(payload);
  if (issues.length) {
    const list = issues.map((i) => `${i.path || '(body)'} ${i.message}`).join('; ');
    throw refuse(`webhook body does not match the partner contract: ${list}`, issues);
  }
  return payload as ReceivedWebhookEvent;
}

/** The body as text or bytes, or a WebhookPayloadError saying why it cannot be read. */
function readableBody(rawBody: unknown): string | Uint8Array {
  let problem: string | null;
  let body: string | Uint8Array | null = null;
  try {
    problem = bodyProblem(rawBody);
    if (!problem) body = bodyView(rawBody);
  } catch (err) {
    // A detached ArrayBuffer (transferred to a worker, or by structuredClone), a Proxy whose traps throw.
    problem = `the webhook body cannot be read: ${detailOf(err)}`;
  }
  if (body === null)
    throw new WebhookPayloadError(problem ?? 'the webhook body cannot be read', [
      { path: '', message: problem ?? 'cannot be read' },
    ]);
  return body;
}

/**
 * Verifies, parses and validates a webhook. Returns the event, typed as a union discriminated by `eventType`, so that
 * `data` narrows; an event type this version of the package does not know comes back as an `UnknownWebhookEvent`
 * (answer 200 and ignore it):
 *
 * ```ts
 * const event = parseWebhookEvent(rawBody, req.headers['x-signature'], authKey);
 * switch (event.eventType) {
 *   case 'user.created': event.data.userId; break;
 *   default: // a newer event type
 * }
 * ```
 *
 * Whatever it is given, throws only `WebhookSignatureError`, when the signature does not prove the body came from the
 * service (or no usable key was given), and `WebhookPayloadError`, when the body cannot be read as a string or bytes,
 * is not JSON, or breaks a documented rule of the contract (no `eventId`, a `user` envelope carrying
 * `verification.created`).
 *
 * Synchronous, on node:crypto (Node, Bun, Deno): where the runtime has none (Cloudflare Workers without
 * `nodejs_compat`, browsers) every call throws a `TypeError` saying to use `verifyWebhookRequest`, which verifies with
 * Web Crypto.
 */
export function parseWebhookEvent(rawBody: RawBody, signature: unknown, authKey: AuthKeys): ReceivedWebhookEvent {
  // Before the arguments: a receiver that cannot verify learns it on its first call, not on its first valid one.
  requireNodeCrypto(
    'parseWebhookEvent',
    'in a fetch handler use await verifyWebhookRequest(request, authKey), which verifies with Web Crypto',
  );
  const body = readableBody(rawBody);
  const problem = signatureProblem(body, signature, authKey);
  if (problem) throw new WebhookSignatureError(SIGNATURE_MESSAGES[problem], problem);
  return eventOf(body);
}

/**
 * `parseWebhookEvent` for fetch-style handlers (Cloudflare Workers, Next.js route handlers, `Deno.serve`, `Bun.serve`):
 * reads the raw body and `X-SIGNATURE` of a Web `Request` and verifies with Web Crypto, so it runs everywhere. Rejects
 * with the errors `parseWebhookEvent` throws (a body that cannot be read, as one read already, is a
 * `WebhookPayloadError`), and with a `TypeError` when given something other than a `Request` (its `X-SIGNATURE` cannot
 * be read) or where the runtime has no Web Crypto (a browser page that is not a secure context).
 */
export async function verifyWebhookRequest(request: Request, authKey: AuthKeys): Promise<ReceivedWebhookEvent> {
  requireWebCrypto('verifyWebhookRequest');
  let signature: string | null;
  try {
    signature = request.headers.get('x-signature');
  } catch (err) {
    throw notARequest('verifyWebhookRequest', err);
  }
  let body: Uint8Array;
  try {
    // Only real bytes: an arrayBuffer() that answers a look-alike reads as no body.
    const read = bodyView(await request.arrayBuffer());
    if (read === null || typeof read === 'string') throw new TypeError('arrayBuffer() did not give bytes');
    body = read;
  } catch (err) {
    const detail = detailOf(err);
    throw new WebhookPayloadError(
      `cannot read the webhook body (read it only through verifyWebhookRequest): ${detail}`,
      [{ path: '', message: detail }],
    );
  }
  const problem = await signatureProblemAsync(body, signature, authKey);
  if (problem) throw new WebhookSignatureError(SIGNATURE_MESSAGES[problem], problem);
  return eventOf(body);
}
