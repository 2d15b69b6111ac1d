// The partner document, and the facts of the service's partner documentation the
// partner-document tests hold it to, each restated with its source (`L145`, a line of the
// documentation, or a decision row): dropping or loosening one in openapi/partner fails a test.
import { expect } from 'vitest';
import { unescapePointerToken } from '../../src/contract/json-pointer.js';
import { deref, loadBundle, operationsOf, pointer, validatorFor, type Json, type OperationEntry } from './openapi.js';

export const doc = loadBundle('partner');
const v = validatorFor('partner');

// ---------------------------------------------------------------------------
// Facts of the documentation, restated: the contract may add to them (partner-additions.ts
// lists what it adds), so the tests check that every documented entry is there.

/** The 18 operations, in the documentation's order. */
export const OPERATIONS = [
  'get /partners',
  'put /partners',
  'get /auth-keys',
  'post /auth-keys',
  'post /verifications',
  'post /verifications/revert',
  'get /verifications',
  'get /verifications/{verificationId}',
  'get /verification/{verificationId}/user-activities',
  'get /verifications/{verificationId}/linked-by-device',
  'get /verifications/{verificationId}/webhooks',
  'get /users',
  'get /users/{userId}',
  'get /users/{userId}/linked-by-device',
  'get /users/{userId}/shares',
  'post /users/external-users',
  'get /users/{userId}/fingerprints',
  'get /users/{userId}/webhooks',
];

/** The query parameters of the operations that take any: paging, and the filters of operations 7 and 12. */
export const QUERY_PARAMETERS: Record<string, string[]> = {
  'get /auth-keys': ['page', 'limit'],
  'get /verifications': [
    'page',
    'limit',
    'phoneNumber',
    'externalUserId',
    'userId',
    'status',
    'from',
    'to',
    'datetimeField',
  ],
  'get /verifications/{verificationId}/webhooks': ['page', 'limit'],
  'get /users': ['page', 'limit', 'phoneNumber', 'externalUserId', 'id', 'isShareholder'],
  'get /users/{userId}/fingerprints': ['page', 'limit'],
  'get /users/{userId}/webhooks': ['page', 'limit'],
};
/** Operations whose lists are paged with `page` and `limit` (3, 7, 11, 12, 17, 18). */
export const PAGED = Object.keys(QUERY_PARAMETERS).filter((key) => QUERY_PARAMETERS[key].includes('page'));

export const STATUSES = [
  'created',
  'started',
  'waitingForUserInput',
  'inReview',
  'completed',
  'declined',
  'closed',
  'expired',
  'reverted',
];
export const REQUIREMENT_TYPES = ['firstAndLastName', 'dateOfBirth', 'document', 'phoneNumbers'];
export const ESTIMATED_AGES = [
  'unknown',
  'under8',
  'over8',
  'over13',
  'over16',
  'over18',
  'over21',
  'over25',
  'over30',
];
export const DOCUMENT_TYPES = ['Passport', 'Government Issued Photo ID', 'Driver License'];
export const DEPRECATED = ['phoneNumber', 'isPhoneNumberVerified', 'requireFirstAndLastName'];
/** The state table (L84-L105): from, next, and a webhook or field it names under "Also". */
export const TRANSITIONS: [string, string, string?][] = [
  ['(none)', 'created', 'verification.created'],
  ['created', 'started', 'verification.updated'],
  ['created', 'closed'],
  ['created', 'expired'],
  ['started', 'waitingForUserInput'],
  ['started', 'inReview'],
  ['started', 'completed'],
  ['started', 'declined'],
  ['started', 'closed'],
  ['started', 'expired'],
  ['waitingForUserInput', 'inReview'],
  ['waitingForUserInput', 'completed'],
  ['waitingForUserInput', 'declined'],
  ['waitingForUserInput', 'closed'],
  ['waitingForUserInput', 'expired'],
  ['inReview', 'completed', 'user.created'],
  ['completed', 'reverted', 'previousUserId'],
];
/** Revert rule 1 allows a move the table leaves out; the contract marks it with its decision. */
export const ASSUMED_TRANSITIONS: [string, string, string][] = [['waitingForUserInput', 'reverted', 'P55']];
/** The component schemas only partners send (request bodies): strict by policy, never met in an answer or webhook. */
export const REQUEST_ONLY_SCHEMAS: readonly string[] = [
  'VerificationCreate',
  'MetadataInput',
  'ExternalUsersCreate',
  'VerificationRevert',
  'PartnerUpdate',
  'EmptyObject',
];

/** Event type → the data type it is sent with. */
export const EVENTS: Record<string, string> = {
  'verification.created': 'verification',
  'verification.updated': 'verification',
  'user.created': 'user',
  'user.merged': 'user',
  'user.updated': 'user',
  'user.deleted': 'user',
  'shareholder.verified': 'shareholder',
};
export const DATA_TYPES = ['user', 'verification', 'shareholder'];

const USER_LIST_ITEM = ['id', 'phoneNumbers', 'externalUsers', 'createdAt', 'updatedAt'];
const WEBHOOK_RECORD = ['id', 'type', 'success', 'payload', 'retryAt', 'reason', 'createdAt', 'updatedAt'];
/** The Verification's fields, also the create answer's (that answer declares `updatedAt` absent). */
const VERIFICATION = [
  'id',
  'url',
  'phoneNumber',
  'isPhoneNumberVerified',
  'phoneNumbers',
  'firstName',
  'lastName',
  'requireFirstAndLastName',
  'requirements',
  'collectedRequirements',
  'userId',
  'previousUserId',
  'externalUserId',
  'redirectUrl',
  'errorRedirectUrl',
  'reason',
  'author',
  'status',
  'metadata',
  'validTo',
  'createdAt',
  'updatedAt',
];
/** A document's fields, as a collected result and as a user's document lists them (L55, L76). */
const DOCUMENT = [
  'type',
  'firstName',
  'lastName',
  'dateOfBirth',
  'placeOfBirth',
  'nationality',
  'serialNo',
  'expiryAt',
  'issuedAt',
  'issuingAuthority',
  'placeOfIssue',
];
/**
 * The fields of each documented object, by its component name in
 * openapi/partner/components/schemas (a dotted name: the object in one of its
 * fields; the create answer is the Verification, which declares `updatedAt` absent).
 */
export const FIELDS: Record<string, string[]> = {
  Partner: ['id', 'webhookUrl', 'name', 'createdAt', 'updatedAt'],
  PartnerUpdate: ['webhookUrl'],
  AuthKey: ['id', 'key', 'active', 'createdAt', 'updatedAt'],
  VerificationCreate: [
    'phoneNumber',
    'isPhoneNumberVerified',
    'phoneNumbers',
    'firstName',
    'lastName',
    'requireFirstAndLastName',
    'requirements',
    'externalUserId',
    'redirectUrl',
    'errorRedirectUrl',
    'timeToExpiry',
    'reason',
    'author',
    'metadata',
  ],
  VerificationRevert: ['verificationId', 'author'],
  Verification: VERIFICATION,
  'CollectedDocument.result': DOCUMENT,
  User: USER_LIST_ITEM,
  UserDetails: [
    ...USER_LIST_ITEM,
    'firstName',
    'lastName',
    'dateOfBirth',
    'estimatedAge',
    'image',
    'names',
    'documents',
  ],
  UserDocument: ['id', ...DOCUMENT, 'createdAt'],
  /** The Verification's fields but `url` and `author`, identified by `verificationId` (L223). */
  VerificationEventData: ['verificationId', ...VERIFICATION.filter((f) => !['id', 'url', 'author'].includes(f))],
  UserEventData: [
    'userId',
    'firstName',
    'lastName',
    'dateOfBirth',
    'createdAt',
    'estimatedAge',
    'phoneNumbers',
    'names',
    'externalUsers',
  ],
  ShareholderEventData: ['userId', 'isShareholder', 'externalUserIds'],
  Shares: ['isShareholder', 'sharesNumber'],
  ExternalUsersResult: [
    'externalUsersWithSuccess',
    'unknownPhoneNumbers',
    'invalidPhoneNumbers',
    'duplicatedExternalUserIds',
  ],
  VerificationWebhookRecord: [...WEBHOOK_RECORD, 'verificationId', 'metadata'],
  UserWebhookRecord: [...WEBHOOK_RECORD, 'userId'],
};
FIELDS.CreatedVerification = FIELDS.Verification;
/** The create fields not marked optional (P5). */
const CREATE_REQUIRED = ['externalUserId', 'redirectUrl'];
/**
 * The documented Verification fields an answer may leave out: those echoing
 * create input the partner may leave out (P8). Every other documented field
 * is always sent. Derived, so that it cannot drift from the two tables.
 */
export const VERIFICATION_OPTIONAL = FIELDS.Verification.filter(
  (f) => FIELDS.VerificationCreate.includes(f) && !CREATE_REQUIRED.includes(f),
);
export const ENVELOPE_FIELDS = ['eventId', 'dataType', 'eventType', 'createdAt', 'data'];

export const UUID = '0b7d3c5e-9a1f-4e2b-8c6d-4f1a2b3c4d5e';
export const USER_ID = 'e7c41a9d-3f5b-4d82-b6e0-9a1f2c7d8b53';
export const TIMESTAMP = '2026-03-14T09:26:53.589Z';
export const SIGNATURE = 'a'.repeat(32) + '0123456789abcdef'.repeat(2);

// ---------------------------------------------------------------------------
// Access to the document.

const sub = (ptr: string, ...parts: (string | number)[]) => ptr + pointer(...parts).slice(1);

/** The node at a JSON pointer, following `$ref`s on the way (not at the end). */
export function rawAt(ptr: string): Json {
  return ptr
    .slice(2)
    .split('/')
    .map(unescapePointerToken)
    .reduce((at: Json, key: string) => deref(doc, at)?.[key], doc);
}
export const nodeAt = (ptr: string): Json => deref(doc, rawAt(ptr));
/** A node of the document with its `$ref` followed. */
export const resolve = (node: Json): Json => deref(doc, node);
/** Validator of the schema at a pointer (through its `$ref`, if it is one). */
export const validatorAt = (ptr: string) => v.at(rawAt(ptr)?.$ref ?? ptr);

export const pathOps = operationsOf(doc).filter((o) => o.kind === 'path');
export const webhookOps = operationsOf(doc).filter((o) => o.kind === 'webhook');
/** An operation by `method /path`, or a webhook by `post event.type`. */
export const op = (key: string): OperationEntry => {
  const [method, path] = key.split(' ');
  const found = operationsOf(doc).find((o) => o.method === method && o.key === path);
  if (!found) throw new Error(`no operation ${key}`);
  return found;
};
/** Pointer of the JSON schema of an operation's answer with a status, or of its request body. */
const schemaPtr = (key: string, status?: string) => {
  const { operation, ptr } = op(key);
  const [holder, at] = status
    ? [operation.responses[status], ['responses', status]]
    : [operation.requestBody, ['requestBody']];
  return sub(holder.$ref ?? sub(ptr, ...at), 'content', 'application/json', 'schema');
};
export const response = (key: string, status: string) => validatorAt(schemaPtr(key, status));
export const body = (key: string) => validatorAt(schemaPtr(key));
export const responseSchema = (key: string, status: string) => nodeAt(schemaPtr(key, status));
export const bodySchema = (key: string) => nodeAt(schemaPtr(key));

/** Parameters of an operation or webhook (path-item and operation level) by name, with a pointer to each schema. */
export function paramsOf(key: string): Record<string, { param: Json; schemaPtr: string }> {
  const entry = op(key);
  const section = `${entry.kind}s`;
  const out: Record<string, { param: Json; schemaPtr: string }> = {};
  const lists: [Json[], string][] = [
    [deref(doc, doc[section][entry.key]).parameters ?? [], pointer(section, entry.key, 'parameters')],
    [entry.operation.parameters ?? [], sub(entry.ptr, 'parameters')],
  ];
  for (const [list, base] of lists) {
    list.forEach((raw, i) => {
      const param = deref(doc, raw);
      out[param.name] = { param, schemaPtr: sub(raw.$ref ?? sub(base, i), 'schema') };
    });
  }
  return out;
}

/** Properties of an object schema, including those of its `allOf` members. */
export function propsOf(schema: Json): Record<string, Json> {
  const s = deref(doc, schema);
  return Object.assign({}, ...(s.allOf ?? []).map(propsOf), s.properties ?? {});
}

/** A fresh copy of a named example's value. */
export const example = (name: string): Json => structuredClone(deref(doc, doc.components.examples[name]).value);
export const without = (value: Json, field: string) => {
  const { [field]: _dropped, ...rest } = value;
  return rest;
};
export const sorted = (list: string[]) => [...list].sort();
/** Copies of an object, each with one of its members in turn left out or null (an optional member, P8). */
export const gaps = (value: Json, members = Object.keys(value)): Json[] =>
  members.flatMap((member) => [without(value, member), { ...value, [member]: null }]);

/** Asserts that each documented name is among `have` (others may be: additions); the message names those missing. */
export function expectDocumented(have: Iterable<string>, documented: string[], what: string) {
  const present = new Set(have);
  expect(
    documented.filter((name) => !present.has(name)),
    `documented ${what} missing from openapi/partner`,
  ).toEqual([]);
}
/** Asserts that the properties of a schema include the documented fields of an object of FIELDS. */
export const expectFields = (schema: Json, name: string) =>
  expectDocumented(Object.keys(propsOf(schema)), FIELDS[name], `fields of ${name}`);
/** The same for an enum, whose documented values also keep their order (added values may stand anywhere). */
export function expectDocumentedValues(values: string[], documented: string[], what: string) {
  expectDocumented(values, documented, what);
  expect(
    values.filter((value) => documented.includes(value)),
    `${what} in the documented order`,
  ).toEqual(documented);
}

// Validators used throughout.
export const verification = response('get /verifications/{verificationId}', '200');
export const webhookEvent = v.schema('WebhookEvent');

export const completed = () => example('VerificationCompleted');
export const collected = (type: string) => completed().collectedRequirements.find((c: Json) => c.type === type);
export const withCollected = (entry: Json) => ({ ...completed(), collectedRequirements: [entry] });

/** The first example of a webhook's request body, its schema and validator. */
const webhookBody = (event: string) => pointer('webhooks', event, 'post', 'requestBody', 'content', 'application/json');
export function webhookExample(event: string): Json {
  const examples = Object.values<Json>(nodeAt(webhookBody(event)).examples);
  return structuredClone(deref(doc, examples[0]).value);
}
export const webhookValidator = (event: string) => validatorAt(sub(webhookBody(event), 'schema'));
export const webhookSchema = (event: string) => nodeAt(sub(webhookBody(event), 'schema'));
