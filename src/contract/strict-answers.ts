// The local sandbox as a strict writer: the fields of an answer or a webhook
// that its schema does not name. Readers must accept unknown fields, so a
// field the sandbox made up would pass in silence and a partner code against
// it; the check generates no code at run time, so every door runs it.
import type { Json } from './json.js';
import type { RouteSpec } from './routes.js';
import { unknownFieldViolations } from './unknown-fields.js';

// One schema object per pointer: the field walk keeps each schema's shape by object (unknown-fields.ts).
const refs = new Map<string, { $ref: string }>();
function refTo($ref: string): { $ref: string } {
  const ref = refs.get($ref) ?? { $ref };
  refs.set($ref, ref);
  return ref;
}

/** The JSON schema of the answer `status` of a route, or the error schema where the route declares none at that status. */
function answerSchema(route: RouteSpec | undefined, status: number): unknown {
  if (route?.statuses.includes(status)) {
    const pointer = route.responseSchemaPointer(status);
    return pointer && refTo(pointer);
  }
  // As the route checks judge it (routes.ts): an undeclared error status answers the document's error schema.
  return status >= 400 ? refTo('#/components/schemas/Error') : undefined;
}

/** The fields of `value` that `schema` does not name, as `answer.errorRedirectURL` or `webhook.data.extra`. */
const undocumented = (doc: Json, schema: unknown, value: unknown, root: 'answer' | 'webhook'): string[] =>
  unknownFieldViolations(doc, schema, value, root).map((v) => v.field);

export class StrictAnswers {
  /** `documents` by API name, each with its `Error` schema (the bundled documents). */
  constructor(private readonly documents: Record<string, Json>) {}

  /** The fields of an answer (outside any route when `route` is absent) that the document does not name. */
  answerFields(api: string, route: RouteSpec | undefined, status: number, body: unknown): string[] {
    return undocumented(this.documents[api], answerSchema(route, status), body, 'answer');
  }

  /** The fields of a webhook of the partner API (by its `eventType`) that the partner document does not name. */
  webhookFields(event: { eventType?: unknown }): string[] {
    const doc = this.documents.partner;
    const mapping: Record<string, string> = doc.components?.schemas?.WebhookEvent?.discriminator?.mapping ?? {};
    const ref = typeof event.eventType === 'string' ? mapping[event.eventType] : undefined;
    return undocumented(doc, refTo(ref ?? '#/components/schemas/WebhookEvent'), event, 'webhook');
  }
}

/** What a local sandbox that broke its own contract says: the fields, and that the fault is its own, never the caller's. */
export function breachMessage(what: string, fields: string[], api: string): string {
  const named = fields.join(', ');
  const document =
    { v2: "the v2 API's", partner: "the partner API's", sandbox: "the control API's" }[api] ?? `the ${api}`;
  return (
    `the local sandbox broke its own contract: ${what} carries ${named}, which ${document} document does not name. ` +
    'This is a bug of the local sandbox, not of your request or code: please report it to the maintainers of ' +
    '@verification-service/contracts with the request that provoked it.'
  );
}

/** Thrown where a breach is found below the answer (a webhook a handler emitted): the door answers 500 with its message. */
export class ContractBreach extends Error {}
