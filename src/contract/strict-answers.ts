// The local sandbox as a strict writer: the fields of an answer or a webhook
// that its schema does not name. Readers must accept unknown fields, so a
// field the sandbox made up would pass in silence and a partner code against
// it; the check generates no code at run time, so every door runs it.
import type { Json } from './json.js';
import { resolveRef } from './json-pointer.js';
import { unknownFieldViolations } from './unknown-fields.js';

/** An answer of an operation: its path and method as its document writes them. */
export interface AnsweredOperation {
  path: string;
  method: string;
  operationId: string;
}

/** The JSON schema of the answer `status` of an operation, or the error schema where the operation declares none at that status. */
function answerSchema(doc: Json, operation: AnsweredOperation | undefined, status: number): unknown {
  if (operation) {
    const op = resolveRef(doc, doc.paths?.[operation.path])?.[operation.method.toLowerCase()];
    const responses = resolveRef(doc, op?.responses) ?? {};
    const declared = resolveRef(doc, responses[String(status)]);
    if (declared) return declared.content?.['application/json']?.schema;
  }
  // As the route checks judge it (routes.ts): an undeclared error status answers the document's error schema.
  return status >= 400 ? { $ref: '#/components/schemas/Error' } : undefined;
}

/** The fields of `value` that `schema` does not name, as `answer.errorRedirectURL` or `webhook.data.extra`. */
function undocumented(doc: Json, schema: unknown, value: unknown, root: 'answer' | 'webhook'): string[] {
  if (schema === undefined || value === null || typeof value !== 'object') return [];
  return unknownFieldViolations(doc, schema, value, root).map((v) => v.field);
}

export class StrictAnswers {
  /** `documents` by API name, each with its `Error` schema (the bundled documents). */
  constructor(private readonly documents: Record<string, Json>) {}

  /** The fields of an answer (outside any operation when `operation` is absent) that the document does not name. */
  answerFields(api: string, operation: AnsweredOperation | undefined, status: number, body: unknown): string[] {
    const doc = this.documents[api];
    return undocumented(doc, answerSchema(doc, operation, status), body, 'answer');
  }

  /** The fields of a webhook of the partner API (by its `eventType`) that the partner document does not name. */
  webhookFields(event: { eventType?: unknown }): string[] {
    const doc = this.documents.partner;
    const mapping: Record<string, string> = doc.components?.schemas?.WebhookEvent?.discriminator?.mapping ?? {};
    const ref = typeof event.eventType === 'string' ? mapping[event.eventType] : undefined;
    return undocumented(doc, { $ref: ref ?? '#/components/schemas/WebhookEvent' }, event, 'webhook');
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
