// The partner integration API document holds every fact of the service's
// partner documentation. Each expectation below restates one of those facts
// (or, where the documentation is silent, the decision recorded in
// openapi/DECISIONS.md, P1–P30); dropping or loosening it in openapi/partner
// makes a test fail.
import { describe, expect, it } from 'vitest';
import { deref, loadBundle, operationsOf, pointer, validatorFor, type Json, type OperationEntry } from './helpers/openapi.js';

const doc = loadBundle('partner');
const v = validatorFor('partner');

// ---------------------------------------------------------------------------
// Facts of the documentation, restated.

/** The 18 operations, in the documentation's order. */
const OPERATIONS = [
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

/** Operations whose lists are paged with `page` and `limit` (3, 7, 11, 12, 17, 18). */
const PAGED = [
  'get /auth-keys',
  'get /verifications',
  'get /verifications/{verificationId}/webhooks',
  'get /users',
  'get /users/{userId}/fingerprints',
  'get /users/{userId}/webhooks',
];

const STATUSES = [
  'created', 'started', 'waitingForUserInput', 'inReview', 'completed', 'declined', 'closed', 'expired', 'reverted',
];
const REQUIREMENT_TYPES = ['firstAndLastName', 'dateOfBirth', 'document', 'phoneNumbers'];
const ESTIMATED_AGES = ['unknown', 'under8', 'over8', 'over13', 'over16', 'over18', 'over21', 'over25', 'over30'];
const DOCUMENT_TYPES = ['Passport', 'Government Issued Photo ID', 'Driver License'];
const DEPRECATED = ['phoneNumber', 'isPhoneNumberVerified', 'requireFirstAndLastName'];

/** Event type → the data type it is sent with. */
const EVENTS: Record<string, string> = {
  'verification.created': 'verification',
  'verification.updated': 'verification',
  'user.created': 'user',
  'user.merged': 'user',
  'user.updated': 'user',
  'user.deleted': 'user',
  'shareholder.verified': 'shareholder',
};
const DATA_TYPES = ['user', 'verification', 'shareholder'];

const VERIFICATION_FIELDS = [
  'id', 'url', 'phoneNumber', 'isPhoneNumberVerified', 'phoneNumbers', 'firstName', 'lastName',
  'requireFirstAndLastName', 'requirements', 'collectedRequirements', 'userId', 'previousUserId', 'externalUserId',
  'redirectUrl', 'errorRedirectUrl', 'reason', 'author', 'status', 'metadata', 'validTo', 'createdAt', 'updatedAt',
];
/** Verification fields that echo optional create input and may be absent (P8). */
const VERIFICATION_OPTIONAL = ['phoneNumber', 'isPhoneNumberVerified', 'phoneNumbers', 'requirements', 'firstName', 'lastName', 'requireFirstAndLastName', 'errorRedirectUrl', 'reason', 'author', 'metadata'];
const CREATE_FIELDS = [
  'phoneNumber', 'isPhoneNumberVerified', 'phoneNumbers', 'firstName', 'lastName', 'requireFirstAndLastName',
  'requirements', 'externalUserId', 'redirectUrl', 'errorRedirectUrl', 'timeToExpiry', 'reason', 'author', 'metadata',
];
const DOCUMENT_RESULT_FIELDS = [
  'type', 'firstName', 'lastName', 'dateOfBirth', 'placeOfBirth', 'nationality', 'serialNo', 'expiryAt', 'issuedAt',
  'issuingAuthority', 'placeOfIssue',
];
const USER_FIELDS = ['id', 'phoneNumbers', 'externalUsers', 'createdAt', 'updatedAt'];
const USER_DETAIL_FIELDS = [...USER_FIELDS, 'firstName', 'lastName', 'dateOfBirth', 'estimatedAge', 'image', 'names', 'documents'];
const USER_DOCUMENT_FIELDS = [
  'id', 'type', 'firstName', 'lastName', 'dateOfBirth', 'placeOfBirth', 'nationality', 'serialNo', 'issuingAuthority',
  'placeOfIssue', 'expiryAt', 'issuedAt', 'createdAt',
];
const VERIFICATION_DATA_FIELDS = [
  'verificationId', 'status', 'redirectUrl', 'errorRedirectUrl', 'externalUserId', 'phoneNumber', 'isPhoneNumberVerified',
  'phoneNumbers', 'firstName', 'lastName', 'requireFirstAndLastName', 'requirements', 'collectedRequirements', 'userId',
  'previousUserId', 'reason', 'metadata', 'validTo', 'createdAt', 'updatedAt',
];
const USER_DATA_FIELDS = ['userId', 'firstName', 'lastName', 'dateOfBirth', 'createdAt', 'estimatedAge', 'phoneNumbers', 'names', 'externalUsers'];
const ENVELOPE_FIELDS = ['eventId', 'dataType', 'eventType', 'createdAt', 'data'];

const UUID = '0b7d3c5e-9a1f-4e2b-8c6d-4f1a2b3c4d5e';
const USER_ID = 'e7c41a9d-3f5b-4d82-b6e0-9a1f2c7d8b53';
const TIMESTAMP = '2026-03-14T09:26:53.589Z';
const SIGNATURE = 'a'.repeat(32) + '0123456789abcdef'.repeat(2);

// ---------------------------------------------------------------------------
// Access to the document.

type Validate = ReturnType<SchemaValidatorAt>;
type SchemaValidatorAt = typeof v.at;

const sub = (ptr: string, ...parts: (string | number)[]) => ptr + pointer(...parts).slice(1);

/** The node at a JSON pointer, following `$ref`s on the way (not at the end). */
function rawAt(ptr: string): Json {
  return ptr
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((at: Json, key: string) => deref(doc, at)?.[key], doc);
}
const nodeAt = (ptr: string): Json => deref(doc, rawAt(ptr));
/** Validator of the schema at a pointer (through its `$ref`, if it is one). */
const validatorAt = (ptr: string): Validate => v.at(rawAt(ptr)?.$ref ?? ptr);

const pathOps = operationsOf(doc).filter((o) => o.kind === 'path');
const webhookOps = operationsOf(doc).filter((o) => o.kind === 'webhook');
const op = (key: string): OperationEntry => {
  const [method, path] = key.split(' ');
  const found = pathOps.find((o) => o.method === method && o.key === path);
  if (!found) throw new Error(`no operation ${key}`);
  return found;
};
const responsePtr = (key: string, status: string) => {
  const entry = op(key);
  const response = entry.operation.responses[status];
  return sub(response.$ref ?? sub(entry.ptr, 'responses', status), 'content', 'application/json', 'schema');
};
const bodyPtr = (entry: OperationEntry) => {
  const body = entry.operation.requestBody;
  return sub(body.$ref ?? sub(entry.ptr, 'requestBody'), 'content', 'application/json', 'schema');
};
const response = (key: string, status: string) => validatorAt(responsePtr(key, status));
const body = (key: string) => validatorAt(bodyPtr(op(key)));
const responseSchema = (key: string, status: string) => nodeAt(responsePtr(key, status));
const bodySchema = (key: string) => nodeAt(bodyPtr(op(key)));

/** Parameters of an operation (path-item and operation level) by name, with a pointer to each schema. */
function paramsOf(key: string): Record<string, { param: Json; schemaPtr: string }> {
  const entry = op(key);
  const out: Record<string, { param: Json; schemaPtr: string }> = {};
  const lists: [Json[], string][] = [
    [deref(doc, doc.paths[entry.key]).parameters ?? [], pointer('paths', entry.key, 'parameters')],
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
function propsOf(schema: Json): Record<string, Json> {
  const s = deref(doc, schema);
  return Object.assign({}, ...(s.allOf ?? []).map(propsOf), s.properties ?? {});
}
function requiredOf(schema: Json): string[] {
  const s = deref(doc, schema);
  return [...(s.required ?? []), ...(s.allOf ?? []).flatMap(requiredOf)];
}

/** A fresh copy of a named example's value. */
const example = (name: string): Json => structuredClone(deref(doc, doc.components.examples[name]).value);
const without = (value: Json, field: string) => {
  const { [field]: _dropped, ...rest } = value;
  return rest;
};
const sorted = (list: string[]) => [...list].sort();

const wantValid = (validate: Validate, value: unknown, label = '') =>
  expect(validate(value), `${label} ${v.errors(validate)}`).toBe(true);
const wantInvalid = (validate: Validate, value: unknown, label = '') => expect(validate(value), label).toBe(false);

// Validators used throughout.
const verification = response('get /verifications/{verificationId}', '200');
const createdVerification = response('post /verifications', '201');
const createBody = body('post /verifications');
const webhookEvent = v.schema('WebhookEvent');

const completed = () => example('VerificationCompleted');
const collected = (type: string) => completed().collectedRequirements.find((c: Json) => c.type === type);
const withCollected = (entry: Json) => ({ ...completed(), collectedRequirements: [entry] });

// ---------------------------------------------------------------------------

describe('document', () => {
  it('is OpenAPI 3.1.0 with the single {sandbox_base_url} server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toHaveLength(1);
    expect(doc.servers[0].url).toBe('{sandbox_base_url}');
    expect(doc.servers[0].variables.sandbox_base_url.default).toMatch(/^https?:\/\//);
    expect(doc.servers[0].description).toMatch(/sandbox/i);
  });

  it('has exactly the 18 documented operations (user-activities under the singular /verification)', () => {
    expect(sorted(pathOps.map((o) => `${o.method} ${o.key}`))).toEqual(sorted(OPERATIONS));
    expect(Object.keys(doc.paths)).toContain('/verification/{verificationId}/user-activities');
    expect(Object.keys(doc.paths)).not.toContain('/verifications/{verificationId}/user-activities');
    expect(Object.keys(doc.paths)).not.toContain('/verification');
  });

  it('names operations uniquely in camelCase', () => {
    const ids = operationsOf(doc).map((o) => o.operation.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares every path template parameter (verificationId or userId) as a required string in the path', () => {
    for (const key of OPERATIONS) {
      const path = key.split(' ')[1];
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const params = paramsOf(key);
      const inPath = Object.values(params).filter((p) => p.param.in === 'path').map((p) => p.param.name);
      expect(sorted(inPath), key).toEqual(sorted(inTemplate));
      for (const name of inPath) {
        expect(['verificationId', 'userId']).toContain(name);
        expect(params[name].param.required, key).toBe(true);
        expect(nodeAt(params[name].schemaPtr).type, key).toBe('string');
      }
    }
    expect(Object.keys(paramsOf('get /verification/{verificationId}/user-activities'))).toContain('verificationId');
    expect(Object.keys(paramsOf('get /users/{userId}/shares'))).toContain('userId');
  });

  it('sends and receives JSON bodies only', () => {
    for (const { operation, key, method } of pathOps) {
      if (operation.requestBody) {
        expect(Object.keys(deref(doc, operation.requestBody).content), `${method} ${key}`).toEqual(['application/json']);
        expect(deref(doc, operation.requestBody).required, `${method} ${key}`).toBe(true);
      }
    }
    expect(sorted(pathOps.filter((o) => o.operation.requestBody).map((o) => `${o.method} ${o.key}`))).toEqual(
      sorted(['put /partners', 'post /auth-keys', 'post /verifications', 'post /verifications/revert', 'post /users/external-users']),
    );
  });

  it('answers 201 for the three creating operations and 200 for every other one (P1)', () => {
    const created = ['post /auth-keys', 'post /verifications', 'post /users/external-users'];
    for (const key of OPERATIONS) {
      const success = Object.keys(op(key).operation.responses).filter((s) => s.startsWith('2'));
      expect(success, key).toEqual([created.includes(key) ? '201' : '200']);
    }
  });

  it('documents 409 Conflict exactly on create verification and revert verification', () => {
    const with409 = pathOps.filter((o) => o.operation.responses['409']).map((o) => `${o.method} ${o.key}`);
    expect(sorted(with409)).toEqual(sorted(['post /verifications', 'post /verifications/revert']));
  });

  it('states the headers of every call: X-Auth-Key and Content-Type: application/json', () => {
    expect(doc.info.description).toMatch(/X-Auth-Key/);
    expect(doc.info.description).toMatch(/Content-Type: application\/json/);
  });

  it('marks the deprecations and the beta status of revert in the overview', () => {
    for (const field of DEPRECATED) expect(doc.info.description).toContain(`\`${field}\``);
    expect(doc.info.description).toMatch(/deprecated/i);
    expect(doc.info.description).toMatch(/beta/i);
  });
});

describe('authentication', () => {
  const schemes = doc.components.securitySchemes;
  const [name, scheme] = Object.entries<Json>(schemes).find(([, s]) => s.type === 'apiKey')!;

  it('is an API key in the X-Auth-Key header', () => {
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Auth-Key' });
    expect(Object.keys(schemes)).toEqual([name]);
  });

  it('is required on every operation', () => {
    for (const { operation, key, method } of pathOps) {
      expect(operation.security ?? doc.security, `${method} ${key}`).toEqual([{ [name]: [] }]);
    }
  });

  it('describes rotation: POST /auth-keys makes the previously active key invalid', () => {
    expect(scheme.description).toContain('POST /auth-keys');
    expect(scheme.description).toMatch(/previous/i);
    expect(scheme.description).toMatch(/invalid/i);
    expect(scheme.description).toMatch(/vault/i);
    expect(op('post /auth-keys').operation.description).toMatch(/previous[^.]*(invalid|inactive)/i);
  });
});

describe('partner and auth keys', () => {
  const partner = response('get /partners', '200');

  it('Partner has id, webhookUrl, name, createdAt and updatedAt', () => {
    const FIELDS = ['id', 'webhookUrl', 'name', 'createdAt', 'updatedAt'];
    const value = example('Partner');
    expect(sorted(Object.keys(responseSchema('get /partners', '200').properties))).toEqual(sorted(FIELDS));
    wantValid(partner, value);
    for (const field of FIELDS) wantInvalid(partner, without(value, field), `without ${field}`);
    for (const field of ['id', 'webhookUrl', 'name']) wantInvalid(partner, { ...value, [field]: 42 }, field);
    for (const field of ['createdAt', 'updatedAt']) wantInvalid(partner, { ...value, [field]: '14.03.2026' }, field);
  });

  it('PUT /partners takes {webhookUrl} and answers the Partner', () => {
    const update = body('put /partners');
    expect(Object.keys(bodySchema('put /partners').properties)).toEqual(['webhookUrl']);
    wantValid(update, { webhookUrl: 'https://partner.example/hooks' });
    wantInvalid(update, {});
    wantInvalid(update, { webhookUrl: 7 });
    wantInvalid(update, { webhookUrl: 'partner.example/hooks' }, 'not a URI (P29)');
    wantValid(partner, { ...example('Partner'), webhookUrl: 'partner.example/hooks' });
    wantValid(response('put /partners', '200'), example('PartnerUpdated'));
    wantInvalid(response('put /partners', '200'), without(example('PartnerUpdated'), 'webhookUrl'));
  });

  it('Auth key has id, key, active, createdAt and updatedAt', () => {
    const list = response('get /auth-keys', '200');
    const value = example('AuthKeysRotated');
    const FIELDS = ['id', 'key', 'active', 'createdAt', 'updatedAt'];
    expect(sorted(Object.keys(nodeAt(sub(responsePtr('get /auth-keys', '200'), 'properties', 'authKeys', 'items')).properties))).toEqual(sorted(FIELDS));
    wantValid(list, value);
    for (const field of FIELDS) wantInvalid(list, { ...value, authKeys: [without(value.authKeys[0], field)] }, `without ${field}`);
    wantInvalid(list, { ...value, authKeys: [{ ...value.authKeys[0], active: 'true' }] });
    wantInvalid(list, { ...value, authKeys: [{ ...value.authKeys[0], key: 123 }] });
  });

  it('a rotation answers the new active key and the previous key now inactive, in any order (P31)', () => {
    const rotation = response('post /auth-keys', '201');
    const [fresh, previous] = example('AuthKeyCreated').authKeys;
    for (const name of ['AuthKeyCreated', 'AuthKeyCreatedAgain']) wantValid(rotation, example(name), name);
    wantInvalid(rotation, { authKeys: [fresh], count: 1 }, 'only the new key');
    wantValid(rotation, { authKeys: [previous, fresh], count: 2 }, 'previous key first');
    wantInvalid(rotation, { authKeys: [fresh, { ...previous, active: true }], count: 2 }, 'previous key still active');
    wantInvalid(rotation, { authKeys: [{ ...fresh, active: false }, previous], count: 2 }, 'new key inactive');
    wantValid(response('get /auth-keys', '200'), { authKeys: [previous], count: 1 }, 'a listing is any page of keys');
  });

  it('listing and creating keys both answer {authKeys, count} with an integer count', () => {
    for (const validate of [response('get /auth-keys', '200'), response('post /auth-keys', '201')]) {
      const value = example('AuthKeyCreated');
      wantValid(validate, value);
      wantInvalid(validate, without(value, 'count'));
      wantInvalid(validate, without(value, 'authKeys'));
      wantInvalid(validate, { ...value, count: 1.5 });
      wantInvalid(validate, { ...value, count: '2' });
    }
    expect(example('AuthKeyCreated').authKeys.filter((k: Json) => k.active)).toHaveLength(1);
    expect(example('AuthKeyCreated').authKeys.filter((k: Json) => !k.active).length).toBeGreaterThanOrEqual(1);
  });

  it('POST /auth-keys takes an empty object (P26)', () => {
    const create = body('post /auth-keys');
    wantValid(create, {});
    wantInvalid(create, { name: 'second key' });
    wantInvalid(create, []);
  });
});

describe('Verification', () => {
  const schema = responseSchema('get /verifications/{verificationId}', '200');

  it('has every documented field', () => {
    expect(sorted(Object.keys(schema.properties))).toEqual(sorted(VERIFICATION_FIELDS));
    wantValid(verification, completed());
  });

  it('always sends the fields that are not optional create input; the echoed ones may be absent (P8)', () => {
    for (const field of VERIFICATION_FIELDS) {
      const ok = verification(without(completed(), field));
      expect(ok, field).toBe(VERIFICATION_OPTIONAL.includes(field));
    }
  });

  it('types each field as documented', () => {
    const wrong: Record<string, unknown[]> = {
      id: [1], url: [1], phoneNumber: [4915112345678], isPhoneNumberVerified: ['true'], phoneNumbers: ['+4915112345678'],
      firstName: [1, null], lastName: [1, null], requireFirstAndLastName: ['yes'], requirements: [{ type: 'document' }],
      collectedRequirements: [{}], externalUserId: ['not-a-uuid', 12], redirectUrl: [1], errorRedirectUrl: [1],
      reason: [1, null], author: [1, null], status: ['pending', 'COMPLETED'], metadata: ['text', null],
      validTo: ['2026-03-15'], createdAt: ['yesterday'], updatedAt: ['14/03/2026'], userId: [1], previousUserId: [1],
    };
    for (const [field, values] of Object.entries(wrong)) {
      for (const value of values) wantInvalid(verification, { ...completed(), [field]: value }, `${field}=${JSON.stringify(value)}`);
    }
    wantValid(verification, { ...completed(), phoneNumber: '+4915112345678', isPhoneNumberVerified: true, requireFirstAndLastName: false });
  });

  it('phoneNumbers are {phoneNumber, isVerified}', () => {
    const entry = { phoneNumber: '+4915112345678', isVerified: true };
    wantValid(verification, { ...completed(), phoneNumbers: [entry] });
    wantInvalid(verification, { ...completed(), phoneNumbers: [{ ...entry, isVerified: 'yes' }] });
    wantInvalid(verification, { ...completed(), phoneNumbers: [without(entry, 'isVerified')] });
    wantInvalid(verification, { ...completed(), phoneNumbers: [without(entry, 'phoneNumber')] });
  });

  it('takes status from the nine documented values', () => {
    expect(deref(doc, schema.properties.status).enum).toEqual(STATUSES);
    for (const status of STATUSES) {
      const value = { ...completed(), status, userId: status === 'completed' ? USER_ID : null, previousUserId: status === 'reverted' ? USER_ID : null };
      wantValid(verification, value, status);
    }
  });

  it('requirements take exactly the four types', () => {
    expect(deref(doc, deref(doc, schema.properties.requirements.items).properties.type).enum).toEqual(REQUIREMENT_TYPES);
    wantValid(verification, { ...completed(), requirements: REQUIREMENT_TYPES.map((type) => ({ type })) });
    wantInvalid(verification, { ...completed(), requirements: [{ type: 'selfie' }] });
    wantInvalid(verification, { ...completed(), requirements: [{}] });
  });

  it('marks phoneNumber, isPhoneNumberVerified and requireFirstAndLastName deprecated, and nothing else', () => {
    const deprecated = Object.entries<Json>(schema.properties).filter(([, s]) => s.deprecated === true).map(([k]) => k);
    expect(sorted(deprecated)).toEqual(sorted(DEPRECATED));
  });

  it('metadata in an answer is any object of partner key-value data: the create bounds are not re-checked (P6)', () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'x']));
    wantValid(verification, { ...completed(), metadata: keys(51) });
    wantValid(verification, { ...completed(), metadata: { ['a'.repeat(41)]: 'x', v: 'y'.repeat(501), n: 3, nested: { a: true } } });
    wantInvalid(verification, { ...completed(), metadata: 'orderId=1' });
    expect(deref(doc, schema.properties.metadata)).not.toHaveProperty('maxProperties');
  });

  it('reason and author in an answer are not re-checked against the create limits (P16)', () => {
    wantValid(verification, { ...completed(), reason: 'r'.repeat(201), author: 'a'.repeat(101) });
    wantInvalid(verification, { ...completed(), reason: 7 });
  });

  it('takes the address fields as the service sends them: no uri format in answers (P29)', () => {
    for (const field of ['url', 'redirectUrl', 'errorRedirectUrl']) {
      wantValid(verification, { ...completed(), [field]: 'app.northwind-mobility.example/verification/done' }, field);
      wantInvalid(verification, { ...completed(), [field]: 42 }, field);
      expect(deref(doc, schema.properties[field]).format, field).toBeUndefined();
    }
  });

  it('states where the end user is sent on status change and on error', () => {
    expect(schema.properties.redirectUrl.description).toMatch(/inReview[\s\S]*completed[\s\S]*declined/);
    expect(schema.properties.errorRedirectUrl.description).toMatch(/error/i);
    expect(schema.properties.url.description).toMatch(/token/i);
  });
});

describe('Verification userId and previousUserId', () => {
  const at = (status: string, userId: unknown, previousUserId: unknown) => ({ ...completed(), status, userId, previousUserId });

  it('completed carries a userId string and no previousUserId', () => {
    wantValid(verification, at('completed', USER_ID, null));
    wantInvalid(verification, at('completed', null, null), 'userId null');
    wantInvalid(verification, without(at('completed', USER_ID, null), 'userId'), 'userId absent');
    wantInvalid(verification, at('completed', USER_ID, USER_ID), 'previousUserId set');
  });

  it('reverted carries a previousUserId (null when reverted from waitingForUserInput) and no userId', () => {
    wantValid(verification, example('VerificationReverted'));
    wantValid(verification, at('reverted', null, USER_ID));
    // Revert rule 1: a waitingForUserInput verification had no user yet (DECISIONS P9).
    wantValid(verification, at('reverted', null, null), 'previousUserId null');
    wantInvalid(verification, at('reverted', null, 42), 'previousUserId a number');
    wantInvalid(verification, without(at('reverted', null, USER_ID), 'previousUserId'), 'previousUserId absent');
    wantInvalid(verification, at('reverted', USER_ID, USER_ID), 'userId set');
  });

  it.each(STATUSES.filter((s) => s !== 'completed' && s !== 'reverted'))('%s carries neither', (status) => {
    wantValid(verification, at(status, null, null));
    wantInvalid(verification, at(status, USER_ID, null), 'userId set');
    wantInvalid(verification, at(status, null, USER_ID), 'previousUserId set');
  });

  it('both are declared string or null', () => {
    const props = responseSchema('get /verifications/{verificationId}', '200').properties;
    expect(sorted(props.userId.type)).toEqual(['null', 'string']);
    expect(sorted(props.previousUserId.type)).toEqual(['null', 'string']);
  });

  it('the documented examples of each status are valid', () => {
    for (const name of ['VerificationCompleted', 'VerificationStarted', 'VerificationWaitingForUserInput', 'VerificationInReview', 'VerificationReverted']) {
      wantValid(verification, example(name), name);
    }
  });
});

describe('collectedRequirements', () => {
  it('each entry type is one of the four requirement types', () => {
    wantValid(verification, completed());
    expect(completed().collectedRequirements.map((c: Json) => c.type)).toEqual(REQUIREMENT_TYPES);
    wantInvalid(verification, withCollected({ type: 'selfie', result: null, verified: false }));
  });

  it('result may be null (not yet collected) for every type', () => {
    for (const type of REQUIREMENT_TYPES) {
      const entry = type === 'phoneNumbers' ? { type, result: null } : { type, result: null, verified: false };
      wantValid(verification, withCollected(entry), type);
    }
  });

  it('the result shape follows the type', () => {
    const results = Object.fromEntries(REQUIREMENT_TYPES.map((t) => [t, collected(t).result]));
    // Result objects are open (extra fields tolerated), and a document result
    // also holds firstName, lastName and dateOfBirth: it therefore fits the
    // name and date-of-birth shapes too. Every other cross pairing is refused.
    const superset = (type: string, other: string) => other === 'document' && ['firstAndLastName', 'dateOfBirth'].includes(type);
    for (const type of REQUIREMENT_TYPES) {
      for (const other of REQUIREMENT_TYPES) {
        const entry = { ...collected(type), result: results[other] };
        expect(verification(withCollected(entry)), `${type} with the ${other} result`).toBe(type === other || superset(type, other));
      }
    }
    wantInvalid(verification, withCollected({ ...collected('firstAndLastName'), result: { ...results.document, lastName: null } }));
    const names = collected('firstAndLastName');
    wantInvalid(verification, withCollected({ ...collected('dateOfBirth'), result: names.result }), 'dateOfBirth with a name result');
  });

  it('firstAndLastName result is {firstName, lastName}', () => {
    const entry = collected('firstAndLastName');
    expect(entry.result).toEqual({ firstName: expect.any(String), lastName: expect.any(String) });
    for (const field of ['firstName', 'lastName']) {
      wantInvalid(verification, withCollected({ ...entry, result: without(entry.result, field) }), field);
      wantInvalid(verification, withCollected({ ...entry, result: { ...entry.result, [field]: 1 } }), field);
    }
  });

  it('dateOfBirth result is {dateOfBirth} as YYYY-MM-DD', () => {
    const entry = collected('dateOfBirth');
    wantValid(verification, withCollected({ ...entry, result: { dateOfBirth: '1991-07-23' } }));
    for (const bad of ['23.07.1991', '1991-07-23T00:00:00.000Z', 19910723]) {
      wantInvalid(verification, withCollected({ ...entry, result: { dateOfBirth: bad } }), String(bad));
    }
    wantInvalid(verification, withCollected({ ...entry, result: {} }));
  });

  it('document result has its eleven fields; only issuingAuthority and placeOfIssue may be null', () => {
    const entry = collected('document');
    const resultSchema = deref(doc, doc.components.schemas.CollectedDocument).properties.result;
    expect(sorted(Object.keys(resultSchema.properties))).toEqual(sorted(DOCUMENT_RESULT_FIELDS));
    wantValid(verification, withCollected({ ...entry, result: { ...entry.result, issuingAuthority: null, placeOfIssue: null } }));
    for (const field of DOCUMENT_RESULT_FIELDS.filter((f) => !['issuingAuthority', 'placeOfIssue'].includes(f))) {
      wantInvalid(verification, withCollected({ ...entry, result: { ...entry.result, [field]: null } }), field);
    }
    for (const field of DOCUMENT_RESULT_FIELDS) {
      wantInvalid(verification, withCollected({ ...entry, result: without(entry.result, field) }), `without ${field}`);
    }
  });

  it('document result dates take a date-time or a date (P12, P13)', () => {
    const entry = collected('document');
    for (const field of ['expiryAt', 'issuedAt']) {
      for (const ok of ['2031-05-11T00:00:00.000Z', '2031-05-11']) {
        wantValid(verification, withCollected({ ...entry, result: { ...entry.result, [field]: ok } }), `${field} ${ok}`);
      }
      wantInvalid(verification, withCollected({ ...entry, result: { ...entry.result, [field]: '11/05/2031' } }), field);
    }
  });

  it('phoneNumbers result is {objects: [{phoneNumber}]}', () => {
    const entry = collected('phoneNumbers');
    wantValid(verification, withCollected({ type: 'phoneNumbers', result: { objects: [{ phoneNumber: '+4915112345678' }] } }));
    wantInvalid(verification, withCollected({ ...entry, result: { objects: ['+4915112345678'] } }));
    wantInvalid(verification, withCollected({ ...entry, result: { objects: [{}] } }));
    wantInvalid(verification, withCollected({ ...entry, result: { phoneNumbers: [] } }));
  });

  it('verified is a boolean on every type except phoneNumbers, where it is absent', () => {
    for (const type of REQUIREMENT_TYPES) {
      const entry = collected(type);
      if (type === 'phoneNumbers') {
        expect(entry).not.toHaveProperty('verified');
        wantValid(verification, withCollected(entry));
        wantInvalid(verification, withCollected({ ...entry, verified: true }), 'phoneNumbers with verified');
        wantInvalid(verification, withCollected({ ...entry, verified: false }), 'phoneNumbers with verified');
      } else {
        wantValid(verification, withCollected({ ...entry, verified: false }), type);
        wantInvalid(verification, withCollected({ ...entry, verified: 'yes' }), type);
        wantInvalid(verification, withCollected(without(entry, 'verified')), `${type} without verified (P11)`);
      }
    }
  });
});

describe('create verification (operation 5)', () => {
  const schema = bodySchema('post /verifications');
  const full = () => example('CreateVerificationRequestFull');

  it('takes the documented fields; externalUserId and redirectUrl are required (P5)', () => {
    expect(sorted(Object.keys(schema.properties))).toEqual(sorted(CREATE_FIELDS));
    expect(sorted(schema.required)).toEqual(['externalUserId', 'redirectUrl']);
    for (const name of ['CreateVerificationRequestFull', 'CreateVerificationRequestMinimal', 'CreateVerificationRequestLegacy']) {
      wantValid(createBody, example(name), name);
    }
    wantValid(createBody, { externalUserId: UUID, redirectUrl: 'https://partner.example/done' });
    wantInvalid(createBody, without(full(), 'externalUserId'));
    wantInvalid(createBody, without(full(), 'redirectUrl'));
    for (const field of CREATE_FIELDS.filter((f) => !['externalUserId', 'redirectUrl'].includes(f))) {
      wantValid(createBody, without(full(), field), `without ${field}`);
    }
  });

  it('externalUserId is a uuid', () => {
    wantInvalid(createBody, { ...full(), externalUserId: 'partner-user-17' });
    wantInvalid(createBody, { ...full(), externalUserId: 17 });
  });

  it('accepts the deprecated fields, marked deprecated', () => {
    const deprecated = Object.entries<Json>(schema.properties).filter(([, s]) => s.deprecated === true).map(([k]) => k);
    expect(sorted(deprecated)).toEqual(sorted(DEPRECATED));
    wantValid(createBody, { ...full(), phoneNumber: '+4915112345678', isPhoneNumberVerified: true, requireFirstAndLastName: true });
    wantInvalid(createBody, { ...full(), isPhoneNumberVerified: 'no' });
    wantInvalid(createBody, { ...full(), requireFirstAndLastName: 'yes' });
  });

  it('phoneNumbers are {phoneNumber, isVerified}; requirements take the four types', () => {
    wantValid(createBody, { ...full(), phoneNumbers: [{ phoneNumber: '+4915112345678', isVerified: true }] });
    wantInvalid(createBody, { ...full(), phoneNumbers: [{ phoneNumber: '+4915112345678', isVerified: 'yes' }] });
    wantInvalid(createBody, { ...full(), phoneNumbers: '+4915112345678' });
    wantValid(createBody, { ...full(), requirements: REQUIREMENT_TYPES.map((type) => ({ type })) });
    wantInvalid(createBody, { ...full(), requirements: [{ type: 'faceScan' }] });
  });

  it('timeToExpiry is a number of minutes from 5 to 43200, default 10080', () => {
    expect(schema.properties.timeToExpiry).toMatchObject({ type: 'number', minimum: 5, maximum: 43200, default: 10080 });
    for (const ok of [5, 10080, 43200]) wantValid(createBody, { ...full(), timeToExpiry: ok }, String(ok));
    for (const bad of [4, 43201, 0, '60']) wantInvalid(createBody, { ...full(), timeToExpiry: bad }, String(bad));
  });

  it('redirectUrl and errorRedirectUrl, sent by the partner, must be URIs (P29)', () => {
    for (const field of ['redirectUrl', 'errorRedirectUrl']) {
      wantValid(createBody, { ...full(), [field]: 'https://app.northwind-mobility.example/verification/done' }, field);
      wantInvalid(createBody, { ...full(), [field]: 'app.northwind-mobility.example/done' }, field);
    }
  });

  it('reason is at most 200 characters and author at most 100', () => {
    wantValid(createBody, { ...full(), reason: 'r'.repeat(200) });
    wantInvalid(createBody, { ...full(), reason: 'r'.repeat(201) });
    wantValid(createBody, { ...full(), author: 'a'.repeat(100) });
    wantInvalid(createBody, { ...full(), author: 'a'.repeat(101) });
  });

  it('metadata: up to 50 keys, key names up to 40 characters, values up to 500 characters', () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, 'value']));
    wantValid(createBody, { ...full(), metadata: keys(50) });
    wantInvalid(createBody, { ...full(), metadata: keys(51) });
    wantValid(createBody, { ...full(), metadata: { ['k'.repeat(40)]: 'v' } });
    wantInvalid(createBody, { ...full(), metadata: { ['k'.repeat(41)]: 'v' } });
    wantValid(createBody, { ...full(), metadata: { note: 'v'.repeat(500) } });
    wantInvalid(createBody, { ...full(), metadata: { note: 'v'.repeat(501) } });
    wantInvalid(createBody, { ...full(), metadata: 'orderId=1' });
  });

  it('the rules are stated: open verification closed, in-review conflict', () => {
    const text = op('post /verifications').operation.description;
    expect(text).toMatch(/`created`/);
    expect(text).toMatch(/result: null|`result` (is )?`?null/);
    expect(text).toMatch(/open verification[^.]*`created`[^.]*`started`[^.]*phone number[^.]*closed/is);
    expect(text).toMatch(/`inReview`[^.]*same phone number[^.]*`externalUserId`[^.]*409/is);
  });
});

describe('create verification response', () => {
  const schema = responseSchema('post /verifications', '201');
  const created = () => example('CreatedVerificationFull');

  it('is the verification without updatedAt', () => {
    for (const name of ['CreatedVerificationFull', 'CreatedVerificationMinimal', 'CreatedVerificationLegacy']) {
      wantValid(createdVerification, example(name), name);
      expect(example(name)).not.toHaveProperty('updatedAt');
    }
    wantInvalid(createdVerification, { ...created(), updatedAt: TIMESTAMP });
    expect(sorted(Object.keys(schema.properties))).toEqual(sorted(VERIFICATION_FIELDS));
  });

  it('is always in status created, with no user yet', () => {
    for (const status of STATUSES.filter((s) => s !== 'created')) wantInvalid(createdVerification, { ...created(), status }, status);
    wantInvalid(createdVerification, { ...created(), userId: USER_ID });
    wantInvalid(createdVerification, { ...created(), previousUserId: USER_ID });
  });

  it('has collectedRequirements entries with result null', () => {
    wantValid(createdVerification, { ...created(), collectedRequirements: [{ type: 'phoneNumbers', result: null }] });
    wantInvalid(createdVerification, { ...created(), collectedRequirements: [collected('firstAndLastName')] });
    wantInvalid(createdVerification, { ...created(), collectedRequirements: [{ type: 'phoneNumbers', result: null, verified: true }] });
    wantInvalid(createdVerification, { ...created(), collectedRequirements: [{ type: 'selfie', result: null, verified: false }] });
  });

  it('marks the deprecated fields deprecated', () => {
    const deprecated = Object.entries<Json>(schema.properties).filter(([, s]) => s.deprecated === true).map(([k]) => k);
    expect(sorted(deprecated)).toEqual(sorted(DEPRECATED));
  });

  it('does not re-check the create limits on the echoed fields, but keeps their documented types', () => {
    wantValid(createdVerification, { ...created(), reason: 'r'.repeat(201), metadata: { k: 'v'.repeat(501) } });
    wantValid(createdVerification, { ...created(), redirectUrl: 'northwind-app://verification/done' });
    wantInvalid(createdVerification, { ...created(), externalUserId: 'nope' });
  });
});

describe('conflicts (409)', () => {
  it.each(['post /verifications', 'post /verifications/revert'])('%s answers 409 with an error message and an example', (key) => {
    const validate = response(key, '409');
    const media = deref(doc, op(key).operation.responses['409']).content['application/json'];
    const examples = Object.values<Json>(media.examples).map((e) => deref(doc, e).value);
    expect(examples.length).toBeGreaterThan(0);
    for (const value of examples) {
      wantValid(validate, value);
      expect(value.message).toEqual(expect.any(String));
      if ('statusCode' in value) expect(value.statusCode).toBe(409);
    }
    wantValid(validate, { message: 'Conflict' });
    wantInvalid(validate, {}, 'no message (P2)');
    wantInvalid(validate, { message: 409 });
  });
});

describe('revert verification (operation 6)', () => {
  const entry = op('post /verifications/revert');

  it('is marked beta', () => {
    expect(entry.operation['x-beta']).toBe(true);
    expect(entry.operation.summary).toMatch(/beta/i);
    expect(entry.operation.description).toMatch(/beta/i);
  });

  it('takes {verificationId, author} and answers {id}', () => {
    const request = body('post /verifications/revert');
    expect(sorted(Object.keys(bodySchema('post /verifications/revert').properties))).toEqual(['author', 'verificationId']);
    wantValid(request, example('RevertVerificationRequest'));
    wantValid(request, { verificationId: 'v-1', author: 'fraud-team' });
    wantInvalid(request, { verificationId: 'v-1' });
    wantInvalid(request, { author: 'fraud-team' });
    wantInvalid(request, { verificationId: 1, author: 'fraud-team' });
    const result = response('post /verifications/revert', '200');
    wantValid(result, example('RevertVerificationResult'));
    wantValid(result, { id: 'v-1' });
    wantInvalid(result, {});
    wantInvalid(result, { id: 1 });
  });

  it('states its four rules', () => {
    const text = entry.operation.description;
    expect(text).toMatch(/`completed`/);
    expect(text).toMatch(/`waitingForUserInput`[^.]*ID scan/i);
    expect(text).toMatch(/409/);
    expect(text).toMatch(/detached/i);
    expect(text).toMatch(/no other\s+successfully\s+completed\s+verification/i);
    expect(text).toMatch(/`externalUserId`[\s\S]*phone number[\s\S]*first name[\s\S]*last name/i);
    expect(text).toMatch(/deleted[^.]*`user\.deleted`/is);
    expect(text).toMatch(/`reverted`/);
    expect(text).toMatch(/`verification\.updated`/);
  });
});

describe('list queries', () => {
  it('pages exactly the six list operations', () => {
    const paged = OPERATIONS.filter((key) => 'page' in paramsOf(key) || 'limit' in paramsOf(key));
    expect(sorted(paged)).toEqual(sorted(PAGED));
  });

  it.each(PAGED)('%s: page from 0 (default 0), limit 0 to 50 (default 15)', (key) => {
    const { page, limit } = paramsOf(key);
    for (const { param } of [page, limit]) {
      expect(param.in).toBe('query');
      expect(param.required ?? false).toBe(false);
    }
    expect(nodeAt(page.schemaPtr)).toMatchObject({ minimum: 0, default: 0 });
    expect(nodeAt(limit.schemaPtr)).toMatchObject({ minimum: 0, maximum: 50, default: 15 });
    const p = validatorAt(page.schemaPtr);
    const l = validatorAt(limit.schemaPtr);
    for (const ok of [0, 1, 100]) wantValid(p, ok, `page ${ok}`);
    wantInvalid(p, -1, 'page -1');
    for (const ok of [0, 15, 50]) wantValid(l, ok, `limit ${ok}`);
    for (const bad of [-1, 51]) wantInvalid(l, bad, `limit ${bad}`);
  });

  it.each(PAGED)('%s: answers the total number of results in an integer count', (key) => {
    const schema = responseSchema(key, key.startsWith('post') ? '201' : '200');
    expect(schema.required).toContain('count');
    const count = deref(doc, schema.properties.count);
    expect(count.type).toBe('integer');
    expect(count.description).toMatch(/total/i);
  });

  describe('list verifications (operation 7)', () => {
    const params = paramsOf('get /verifications');

    it('has paging, the four comma-separated filters and the time window', () => {
      expect(sorted(Object.keys(params))).toEqual(
        sorted(['page', 'limit', 'phoneNumber', 'externalUserId', 'userId', 'status', 'from', 'to', 'datetimeField']),
      );
      for (const { param } of Object.values(params)) {
        expect(param.in).toBe('query');
        expect(param.required ?? false).toBe(false);
      }
    });

    it.each(['phoneNumber', 'externalUserId', 'userId', 'status'])('%s is comma-separated (form, not exploded)', (name) => {
      expect(params[name].param).toMatchObject({ style: 'form', explode: false });
      expect(nodeAt(params[name].schemaPtr).type).toBe('array');
    });

    it('phoneNumber values are E.164', () => {
      const validate = validatorAt(params.phoneNumber.schemaPtr);
      wantValid(validate, ['+4915112345678', '+31612345678']);
      wantInvalid(validate, ['015112345678']);
      wantInvalid(validate, ['+49 151 12345678']);
    });

    it('externalUserId values are uuids; userId values strings', () => {
      const ext = validatorAt(params.externalUserId.schemaPtr);
      wantValid(ext, [UUID, '3b1f8e2a-6c4d-4f0e-9a7b-5d2c8e1f4a90']);
      wantInvalid(ext, ['partner-17']);
      const user = validatorAt(params.userId.schemaPtr);
      wantValid(user, [USER_ID, 'any-id']);
      wantInvalid(user, [17]);
    });

    it('status values are the nine statuses', () => {
      const validate = validatorAt(params.status.schemaPtr);
      expect(deref(doc, nodeAt(params.status.schemaPtr).items).enum).toEqual(STATUSES);
      wantValid(validate, STATUSES);
      wantInvalid(validate, ['pending']);
    });

    it('from and to are RFC 3339 date-times; datetimeField picks createdAt, updatedAt or validTo (no default, P20)', () => {
      for (const name of ['from', 'to']) {
        const validate = validatorAt(params[name].schemaPtr);
        wantValid(validate, '2026-03-01T00:00:00.000Z', name);
        wantValid(validate, '2026-03-01T01:00:00+01:00', name);
        wantInvalid(validate, '2026-03-01', name);
        wantInvalid(validate, 'yesterday', name);
      }
      expect(params.from.param.description).toMatch(/more recent/i);
      const field = nodeAt(params.datetimeField.schemaPtr);
      expect(field.enum).toEqual(['createdAt', 'updatedAt', 'validTo']);
      expect(field.default).toBeUndefined();
      wantInvalid(validatorAt(params.datetimeField.schemaPtr), 'expiresAt');
    });

    it('answers {verifications, count}, each item a full Verification', () => {
      const list = response('get /verifications', '200');
      wantValid(list, example('VerificationListPage'));
      wantValid(list, { verifications: [completed()], count: 1 });
      wantInvalid(list, { verifications: [completed()] });
      wantInvalid(list, { verifications: [example('CreatedVerificationFull')], count: 1 }, 'item without updatedAt');
      wantInvalid(list, { verifications: [{ ...completed(), userId: null }], count: 1 });
    });
  });

  describe('list users (operation 12)', () => {
    const params = paramsOf('get /users');

    it('has paging and the phoneNumber, externalUserId, id and isShareholder filters', () => {
      expect(sorted(Object.keys(params))).toEqual(sorted(['page', 'limit', 'phoneNumber', 'externalUserId', 'id', 'isShareholder']));
      for (const { param } of Object.values(params)) {
        expect(param.in).toBe('query');
        expect(param.required ?? false).toBe(false);
      }
    });

    it.each(['phoneNumber', 'externalUserId', 'id'])('%s is comma-separated (form, not exploded)', (name) => {
      expect(params[name].param).toMatchObject({ style: 'form', explode: false });
      expect(nodeAt(params[name].schemaPtr).type).toBe('array');
    });

    it('filters by E.164 phone numbers, uuid external ids, string ids and a boolean isShareholder', () => {
      wantValid(validatorAt(params.phoneNumber.schemaPtr), ['+4915112345678']);
      wantInvalid(validatorAt(params.phoneNumber.schemaPtr), ['4915112345678']);
      wantValid(validatorAt(params.externalUserId.schemaPtr), [UUID]);
      wantInvalid(validatorAt(params.externalUserId.schemaPtr), ['x']);
      wantValid(validatorAt(params.id.schemaPtr), [USER_ID]);
      wantInvalid(validatorAt(params.id.schemaPtr), [1]);
      const shareholder = validatorAt(params.isShareholder.schemaPtr);
      expect(nodeAt(params.isShareholder.schemaPtr).type).toBe('boolean');
      wantValid(shareholder, true);
      wantValid(shareholder, false);
      wantInvalid(shareholder, 'yes');
    });
  });
});

describe('users', () => {
  const list = response('get /users', '200');
  const details = response('get /users/{userId}', '200');
  const full = () => example('UserDetailsFull');
  const page = () => example('UserListPage');
  const withUser = (user: Json) => ({ users: [user], count: 1 });

  it('list item has id, phoneNumbers, externalUsers, createdAt and updatedAt, all sent', () => {
    const item = deref(doc, responseSchema('get /users', '200').properties.users.items);
    expect(sorted(Object.keys(propsOf(item)))).toEqual(sorted(USER_FIELDS));
    wantValid(list, page());
    for (const field of USER_FIELDS) wantInvalid(list, withUser(without(page().users[0], field)), `without ${field}`);
    wantInvalid(list, without(page(), 'count'));
  });

  it('user phone numbers are {E.164 phoneNumber, createdAt, verified}', () => {
    const user = page().users[0];
    const phone = user.phoneNumbers[0];
    wantValid(list, withUser({ ...user, phoneNumbers: [{ phoneNumber: '+33612345678', createdAt: TIMESTAMP, verified: false }] }));
    wantInvalid(list, withUser({ ...user, phoneNumbers: [{ ...phone, phoneNumber: '0612345678' }] }));
    wantInvalid(list, withUser({ ...user, phoneNumbers: [{ ...phone, verified: 'yes' }] }));
    for (const field of ['phoneNumber', 'createdAt', 'verified']) {
      wantInvalid(list, withUser({ ...user, phoneNumbers: [without(phone, field)] }), field);
    }
  });

  it('external users are {id, createdAt}, several allowed', () => {
    const user = page().users[0];
    expect(user.externalUsers.length).toBeGreaterThan(1);
    wantValid(list, withUser(user));
    wantInvalid(list, withUser({ ...user, externalUsers: [{ id: UUID }] }));
    wantInvalid(list, withUser({ ...user, externalUsers: [{ createdAt: TIMESTAMP }] }));
    wantInvalid(list, withUser({ ...user, externalUsers: [UUID] }));
  });

  it('details add firstName, lastName, dateOfBirth, estimatedAge, image, names and documents', () => {
    const schema = responseSchema('get /users/{userId}', '200');
    expect(sorted(Object.keys(propsOf(schema)))).toEqual(sorted(USER_DETAIL_FIELDS));
    expect(sorted(requiredOf(schema))).toEqual(sorted([...USER_FIELDS, 'estimatedAge', 'image', 'names', 'documents']));
    wantValid(details, full());
    wantValid(details, example('UserDetailsMinimal'));
    for (const field of ['estimatedAge', 'image', 'names', 'documents', ...USER_FIELDS]) {
      wantInvalid(details, without(full(), field), `without ${field}`);
    }
  });

  it('firstName, lastName and dateOfBirth are optional; dateOfBirth is string or null', () => {
    for (const field of ['firstName', 'lastName', 'dateOfBirth']) wantValid(details, without(full(), field), `without ${field}`);
    wantValid(details, { ...full(), dateOfBirth: null });
    wantValid(details, { ...full(), dateOfBirth: '1991-07-23' });
    wantInvalid(details, { ...full(), dateOfBirth: 19910723 });
    wantInvalid(details, { ...full(), firstName: null });
    wantInvalid(details, { ...full(), lastName: 7 });
  });

  it('estimatedAge takes exactly the nine documented values', () => {
    expect(deref(doc, propsOf(responseSchema('get /users/{userId}', '200')).estimatedAge).enum).toEqual(ESTIMATED_AGES);
    for (const age of ESTIMATED_AGES) wantValid(details, { ...full(), estimatedAge: age }, age);
    for (const bad of ['over99', 'OVER_18', 'over40', 18]) wantInvalid(details, { ...full(), estimatedAge: bad }, String(bad));
    expect(deref(doc, propsOf(responseSchema('get /users/{userId}', '200')).estimatedAge).description).toMatch(/99\.5\s*%/);
  });

  it('image is a base64-encoded string', () => {
    expect(propsOf(responseSchema('get /users/{userId}', '200')).image).toMatchObject({ type: 'string', contentEncoding: 'base64' });
    wantInvalid(details, { ...full(), image: 42 });
    wantInvalid(details, { ...full(), image: null });
  });

  it('names is a history of {firstName, lastName, createdAt}', () => {
    expect(full().names.length).toBeGreaterThan(1);
    wantValid(details, { ...full(), names: [] });
    for (const field of ['firstName', 'lastName', 'createdAt']) {
      wantInvalid(details, { ...full(), names: [without(full().names[0], field)] }, field);
    }
    wantInvalid(details, { ...full(), names: [{ ...full().names[0], createdAt: 'March' }] });
  });

  describe('documents', () => {
    const withDoc = (change: Json) => ({ ...full(), documents: [{ ...full().documents[0], ...change }] });

    it('have the thirteen documented fields', () => {
      const docSchema = deref(doc, propsOf(responseSchema('get /users/{userId}', '200')).documents.items);
      expect(sorted(Object.keys(docSchema.properties))).toEqual(sorted(USER_DOCUMENT_FIELDS));
      for (const field of USER_DOCUMENT_FIELDS) {
        wantInvalid(details, { ...full(), documents: [without(full().documents[0], field)] }, `without ${field}`);
      }
      for (const field of ['id', 'firstName', 'lastName', 'dateOfBirth', 'placeOfBirth', 'nationality', 'serialNo', 'issuingAuthority', 'placeOfIssue']) {
        wantInvalid(details, withDoc({ [field]: 1 }), field);
      }
    });

    it('issuingAuthority and placeOfIssue may be null, as on the collected document (P32)', () => {
      for (const field of ['issuingAuthority', 'placeOfIssue']) {
        wantValid(details, withDoc({ [field]: null }), field);
        wantValid(verification, withCollected({ ...collected('document'), result: { ...collected('document').result, [field]: null } }), `collected ${field}`);
      }
    });

    it('type is exactly Passport, Government Issued Photo ID or Driver License', () => {
      const docSchema = deref(doc, propsOf(responseSchema('get /users/{userId}', '200')).documents.items);
      expect(deref(doc, docSchema.properties.type).enum).toEqual(DOCUMENT_TYPES);
      for (const type of DOCUMENT_TYPES) wantValid(details, withDoc({ type }), type);
      for (const bad of ['ID Card', 'passport', 'DRIVER_LICENSE']) wantInvalid(details, withDoc({ type: bad }), bad);
    });

    it('expiryAt and issuedAt take a date-time or a date, nothing else', () => {
      for (const field of ['expiryAt', 'issuedAt']) {
        wantValid(details, withDoc({ [field]: '2031-05-11T00:00:00.000Z' }), field);
        wantValid(details, withDoc({ [field]: '2031-05-11' }), field);
        for (const bad of ['11/05/2031', '2031-13-11', '']) wantInvalid(details, withDoc({ [field]: bad }), `${field} ${bad}`);
      }
      wantValid(details, withDoc({ createdAt: TIMESTAMP }));
      wantInvalid(details, withDoc({ createdAt: '2031-05-11' }));
    });
  });
});

describe('user sub-resources', () => {
  it('shares: boolean isShareholder and integer sharesNumber', () => {
    const shares = response('get /users/{userId}/shares', '200');
    expect(sorted(Object.keys(responseSchema('get /users/{userId}/shares', '200').properties))).toEqual(['isShareholder', 'sharesNumber']);
    wantValid(shares, example('SharesShareholder'));
    wantValid(shares, example('SharesNone'));
    wantValid(shares, { isShareholder: true, sharesNumber: 250 });
    expect(responseSchema('get /users/{userId}/shares', '200').properties.sharesNumber.type).toBe('integer');
    wantInvalid(shares, { isShareholder: true, sharesNumber: 1.5 });
    wantInvalid(shares, { isShareholder: true, sharesNumber: '250' });
    wantInvalid(shares, { isShareholder: 'true', sharesNumber: 250 });
    wantInvalid(shares, { isShareholder: true });
    wantInvalid(shares, { sharesNumber: 0 });
  });

  it('linked by device: {userId, linkedUsersByDevice: [{deviceId, users: [{userId}]}]}', () => {
    const linked = response('get /users/{userId}/linked-by-device', '200');
    const value = example('UserLinkedByDevice');
    wantValid(linked, value);
    wantValid(linked, example('UserLinkedByDeviceAlone'));
    // The queried user is in each device's list.
    for (const device of value.linkedUsersByDevice) expect(device.users.map((u: Json) => u.userId)).toContain(value.userId);
    wantInvalid(linked, without(value, 'userId'));
    wantInvalid(linked, without(value, 'linkedUsersByDevice'));
    wantInvalid(linked, { ...value, linkedUsersByDevice: [{ users: [{ userId: USER_ID }] }] });
    wantInvalid(linked, { ...value, linkedUsersByDevice: [{ deviceId: 'd', users: [USER_ID] }] });
    wantInvalid(linked, { ...value, linkedUsersByDevice: [{ deviceId: 'd' }] });
    expect(responseSchema('get /users/{userId}/linked-by-device', '200').description).toMatch(/queried user/i);
  });

  it('fingerprints: {fingerprints: [{id, events: [{id, data}]}], count}, data free-form', () => {
    const prints = response('get /users/{userId}/fingerprints', '200');
    const value = example('FingerprintListPage');
    wantValid(prints, value);
    wantValid(prints, example('FingerprintListEmpty'));
    const withEvent = (event: Json) => ({ fingerprints: [{ id: 'fp', events: [event] }], count: 1 });
    wantValid(prints, withEvent({ id: 'e', data: { anything: { nested: [1, 'two', null] }, flag: true } }));
    wantValid(prints, withEvent({ id: 'e', data: {} }));
    wantInvalid(prints, withEvent({ id: 'e', data: 'free text' }));
    wantInvalid(prints, withEvent({ id: 'e' }));
    wantInvalid(prints, withEvent({ data: {} }));
    wantInvalid(prints, { fingerprints: [{ events: [] }], count: 0 });
    wantInvalid(prints, without(value, 'count'));
  });

  describe('batch external users (operation 16)', () => {
    it('takes {externalUsers: [{phoneNumber, externalUserId (uuid)}]}', () => {
      const request = body('post /users/external-users');
      wantValid(request, example('ExternalUsersRequest'));
      wantValid(request, { externalUsers: [{ phoneNumber: '+4915112345678', externalUserId: UUID }] });
      wantInvalid(request, { externalUsers: [{ phoneNumber: '+4915112345678', externalUserId: 'partner-17' }] });
      wantInvalid(request, { externalUsers: [{ phoneNumber: '+4915112345678' }] });
      wantInvalid(request, { externalUsers: [{ externalUserId: UUID }] });
      wantInvalid(request, {});
      // Invalid numbers must be sendable: they are reported back in invalidPhoneNumbers (P17).
      wantValid(request, { externalUsers: [{ phoneNumber: '+49 151 1234', externalUserId: UUID }] });
    });

    it('answers four arrays: created links, unknown and invalid numbers, duplicated external ids', () => {
      const result = response('post /users/external-users', '201');
      const value = example('ExternalUsersResultMixed');
      const ARRAYS = ['externalUsersWithSuccess', 'unknownPhoneNumbers', 'invalidPhoneNumbers', 'duplicatedExternalUserIds'];
      expect(sorted(Object.keys(responseSchema('post /users/external-users', '201').properties))).toEqual(sorted(ARRAYS));
      wantValid(result, value);
      wantValid(result, example('ExternalUsersResultDuplicate'));
      for (const field of ARRAYS) {
        wantInvalid(result, without(value, field), `without ${field}`);
        wantInvalid(result, { ...value, [field]: 'x' }, `${field} not an array`);
      }
      for (const field of ['unknownPhoneNumbers', 'invalidPhoneNumbers', 'duplicatedExternalUserIds']) {
        wantInvalid(result, { ...value, [field]: [1] }, field);
      }
      const link = { externalUserId: UUID, phoneNumber: '+4915112345678', partnerUserId: 'pu-1' };
      wantValid(result, { ...value, externalUsersWithSuccess: [link] });
      for (const field of Object.keys(link)) {
        wantInvalid(result, { ...value, externalUsersWithSuccess: [without(link, field)] }, `link without ${field}`);
      }
    });
  });
});

describe('verification sub-resources', () => {
  it('user activities: {activities: [{activity, sessionId, createdAt}]}, activity an open string', () => {
    const activities = response('get /verification/{verificationId}/user-activities', '200');
    wantValid(activities, example('UserActivities'));
    wantValid(activities, example('UserActivitiesEmpty'));
    const item = { activity: 'startSession', sessionId: 's-1', createdAt: TIMESTAMP };
    for (const activity of ['startSession', 'cameraIssue', 'documentUploaded']) {
      wantValid(activities, { activities: [{ ...item, activity }] }, activity);
    }
    const activitySchema = deref(doc, responseSchema('get /verification/{verificationId}/user-activities', '200').properties.activities.items).properties.activity;
    expect(activitySchema.enum).toBeUndefined();
    expect(activitySchema.const).toBeUndefined();
    expect(activitySchema.description).toMatch(/startSession[\s\S]*cameraIssue/);
    for (const field of Object.keys(item)) wantInvalid(activities, { activities: [without(item, field)] }, `without ${field}`);
    wantInvalid(activities, { activities: [{ ...item, createdAt: '14.03.2026' }] });
    wantInvalid(activities, { activities: [{ ...item, activity: 3 }] });
    wantInvalid(activities, {});
  });

  it('linked by device: {verificationId, linkedVerificationsByDevice: [{deviceId, verifications: [{verificationId}]}]}', () => {
    const linked = response('get /verifications/{verificationId}/linked-by-device', '200');
    const value = example('VerificationLinkedByDevice');
    wantValid(linked, value);
    wantValid(linked, example('VerificationLinkedByDeviceNone'));
    wantInvalid(linked, without(value, 'verificationId'));
    wantInvalid(linked, without(value, 'linkedVerificationsByDevice'));
    wantInvalid(linked, { ...value, linkedVerificationsByDevice: [{ verifications: [] }] });
    wantInvalid(linked, { ...value, linkedVerificationsByDevice: [{ deviceId: 'd', verifications: [{ id: 'v' }] }] });
    wantInvalid(linked, { ...value, linkedVerificationsByDevice: [{ deviceId: 'd' }] });
  });
});

describe('webhook records (operations 11 and 18)', () => {
  const listings = [
    { key: 'get /verifications/{verificationId}/webhooks', idField: 'verificationId', type: 'verification', otherType: 'user', example: 'VerificationWebhookRecords' },
    { key: 'get /users/{userId}/webhooks', idField: 'userId', type: 'user', otherType: 'verification', example: 'UserWebhookRecords' },
  ];

  describe.each(listings)('$key', ({ key, idField, type, otherType, example: exampleName }) => {
    const list = response(key, '200');
    const value = () => example(exampleName);
    const withRecord = (change: Json) => {
      const page = value();
      return { ...page, webhooks: [{ ...page.webhooks[0], ...change }] };
    };
    const record = () => value().webhooks[0];

    it(`has id, ${idField}, type, success, payload, retryAt, reason, createdAt and updatedAt`, () => {
      const schema = deref(doc, responseSchema(key, '200').properties.webhooks.items);
      const expected = ['id', idField, 'type', 'success', 'payload', 'retryAt', 'reason', 'createdAt', 'updatedAt'];
      if (type === 'verification') expected.push('metadata');
      expect(sorted(Object.keys(schema.properties))).toEqual(sorted(expected));
      wantValid(list, value());
      for (const field of expected.filter((f) => f !== 'reason')) {
        wantInvalid(list, { ...value(), webhooks: [without(record(), field)] }, `without ${field}`);
      }
      wantValid(list, { ...value(), webhooks: [without(record(), 'reason')] }, 'without reason (P24)');
      wantInvalid(list, without(value(), 'count'));
    });

    it(`type is ${type} in this listing`, () => {
      wantValid(list, withRecord({ type }));
      wantInvalid(list, withRecord({ type: otherType }));
      wantInvalid(list, withRecord({ type: 'shareholder' }));
    });

    it('success is a boolean; reason a string', () => {
      wantValid(list, withRecord({ success: false, reason: 'Request failed with status code 503' }));
      wantInvalid(list, withRecord({ success: 'yes' }));
      wantInvalid(list, withRecord({ reason: 503 }));
    });

    it('retryAt is a date-time or null', () => {
      wantValid(list, withRecord({ retryAt: null }));
      wantValid(list, withRecord({ retryAt: '2026-03-14T09:42:12.480Z' }));
      wantInvalid(list, withRecord({ retryAt: '2026-03-14' }));
      wantInvalid(list, withRecord({ retryAt: 15 }));
    });

    it('payload is a webhook envelope, any of the seven events', () => {
      for (const event of Object.keys(EVENTS)) wantValid(list, withRecord({ payload: webhookExample(event) }), event);
      wantInvalid(list, withRecord({ payload: { foo: 1 } }));
      wantInvalid(list, withRecord({ payload: JSON.stringify(webhookExample('user.created')) }));
      wantInvalid(list, withRecord({ payload: { ...webhookExample('user.created'), eventType: 'verification.created' } }));
    });

    if (type === 'verification') {
      it('metadata is an object', () => {
        wantValid(list, withRecord({ metadata: { attempt: 2 } }));
        wantInvalid(list, withRecord({ metadata: 'x' }));
      });
    }
  });

  it('records are updated on retry rather than duplicated', () => {
    const text = [responseSchema(listings[0].key, '200'), responseSchema(listings[1].key, '200')]
      .map((s) => deref(doc, s.properties.webhooks.items).description)
      .join('\n');
    expect(text).toMatch(/retr[^.]*(update|do not add)/i);
  });
});

// ---------------------------------------------------------------------------

function webhookBody(event: string): Json {
  return deref(doc, doc.webhooks[event]).post.requestBody;
}
function webhookExample(event: string): Json {
  const examples = Object.values<Json>(deref(doc, webhookBody(event)).content['application/json'].examples);
  return structuredClone(deref(doc, examples[0]).value);
}
const webhookValidator = (event: string) => validatorAt(sub(pointer('webhooks', event, 'post', 'requestBody'), 'content', 'application/json', 'schema'));
const webhookSchema = (event: string) => nodeAt(sub(pointer('webhooks', event, 'post', 'requestBody'), 'content', 'application/json', 'schema'));

describe('webhooks', () => {
  it('are exactly the seven event types', () => {
    expect(sorted(Object.keys(doc.webhooks))).toEqual(sorted(Object.keys(EVENTS)));
    expect(webhookOps).toHaveLength(7);
  });

  describe.each(Object.keys(EVENTS))('%s', (event) => {
    const item = deref(doc, doc.webhooks[event]) ?? {};
    const operation = item.post ?? {};

    it('is delivered by POST with no API key (P21)', () => {
      expect(Object.keys(item).filter((k) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(k))).toEqual(['post']);
      expect(operation.security).toEqual([]);
      expect(deref(doc, operation.requestBody).required).toBe(true);
    });

    it('carries the required X-SIGNATURE header, lowercase hex of 64 digits', () => {
      const raw = (operation.parameters ?? []).find((p: Json) => deref(doc, p).name === 'X-SIGNATURE');
      expect(raw).toBeDefined();
      const param = deref(doc, raw);
      expect(param).toMatchObject({ in: 'header', required: true });
      expect(param.description).toMatch(/HMAC-SHA256/);
      expect(param.description).toMatch(/auth key/i);
      const i = operation.parameters.indexOf(raw);
      const validate = validatorAt(sub(raw.$ref ?? sub(pointer('webhooks', event, 'post', 'parameters'), i), 'schema'));
      wantValid(validate, SIGNATURE);
      wantInvalid(validate, SIGNATURE.toUpperCase().replace(/[0-9]/g, 'A'));
      wantInvalid(validate, SIGNATURE.slice(1));
      wantInvalid(validate, `${SIGNATURE}0`);
      wantInvalid(validate, 'g'.repeat(64));
    });

    it('answers only 200, and anything else is retried every 15 minutes', () => {
      expect(Object.keys(operation.responses)).toEqual(['200']);
      const description = deref(doc, operation.responses['200']).description;
      expect(description).toMatch(/15 minutes/);
      expect(description).toMatch(/retr/i);
    });

    it('has a realistic example of its own event', () => {
      const value = webhookExample(event);
      wantValid(webhookValidator(event), value);
      wantValid(webhookEvent, value);
      expect(value.eventType).toBe(event);
      expect(value.dataType).toBe(EVENTS[event]);
      expect(value.eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(Object.keys(value.data).length).toBeGreaterThanOrEqual(3);
    });

    it('has the envelope eventId (uuid), dataType, eventType, createdAt (date-time) and data, all required', () => {
      const schema = webhookSchema(event);
      const validate = webhookValidator(event);
      expect(sorted(Object.keys(schema.properties))).toEqual(sorted(ENVELOPE_FIELDS));
      for (const field of ENVELOPE_FIELDS) wantInvalid(validate, without(webhookExample(event), field), `without ${field}`);
      wantInvalid(validate, { ...webhookExample(event), eventId: 'evt-1' });
      wantValid(validate, { ...webhookExample(event), eventId: UUID });
      wantInvalid(validate, { ...webhookExample(event), createdAt: '2026-03-14' });
      wantInvalid(validate, { ...webhookExample(event), data: 'x' });
    });

    it('fixes its eventType and the dataType it pairs with', () => {
      const validate = webhookValidator(event);
      for (const other of Object.keys(EVENTS).filter((e) => e !== event)) {
        wantInvalid(validate, { ...webhookExample(event), eventType: other }, other);
      }
      for (const dataType of DATA_TYPES.filter((d) => d !== EVENTS[event])) {
        wantInvalid(validate, { ...webhookExample(event), dataType }, dataType);
      }
    });
  });
});

describe('webhook envelope (WebhookEvent)', () => {
  it('takes dataType from user, verification and shareholder, and eventType from the seven events', () => {
    const members = deref(doc, doc.components.schemas.WebhookEvent).oneOf.map((m: Json) => deref(doc, m));
    expect(sorted([...new Set<string>(members.map((m: Json) => m.properties.dataType.const))])).toEqual(sorted(DATA_TYPES));
    expect(sorted(members.map((m: Json) => m.properties.eventType.const))).toEqual(sorted(Object.keys(EVENTS)));
  });

  it('accepts every documented dataType/eventType pair and rejects every other', () => {
    for (const event of Object.keys(EVENTS)) {
      for (const dataType of DATA_TYPES) {
        const value = { ...webhookExample(event), dataType };
        expect(webhookEvent(value), `${dataType} with ${event}`).toBe(dataType === EVENTS[event]);
      }
    }
    // Data of one kind with each event type of that kind; verification.created
    // also needs a just-created verification, which the updated example is not.
    for (const source of Object.keys(EVENTS)) {
      for (const event of Object.keys(EVENTS)) {
        const value = { ...webhookExample(source), eventType: event };
        const pending = event !== 'verification.created' || webhookExample(source).data.status === 'created';
        expect(webhookEvent(value), `${source} data as ${event}`).toBe(EVENTS[source] === EVENTS[event] && pending);
      }
    }
  });

  it('rejects a user envelope carrying verification.created', () => {
    wantInvalid(webhookEvent, { ...webhookExample('user.created'), eventType: 'verification.created' });
    wantInvalid(webhookEvent, { ...webhookExample('verification.created'), dataType: 'user' });
  });

  it('is described with the pairing table', () => {
    const text = deref(doc, doc.components.schemas.WebhookEvent).description;
    for (const [event, dataType] of Object.entries(EVENTS)) {
      expect(text).toMatch(new RegExp(`\\|\\s*\`?${dataType}\`?\\s*\\|\\s*\`${event.replace('.', '\\.')}\``));
    }
  });
});

describe('webhook data', () => {
  describe('verification', () => {
    const event = 'verification.updated';
    const validate = () => webhookValidator(event);
    const withData = (change: Json) => {
      const value = webhookExample(event);
      return { ...value, data: { ...value.data, ...change } };
    };
    const dropData = (field: string) => {
      const value = webhookExample(event);
      return { ...value, data: without(value.data, field) };
    };

    it('has the documented fields, identified by verificationId', () => {
      const data = deref(doc, webhookSchema(event).properties.data);
      expect(sorted(Object.keys(data.properties))).toEqual(sorted(VERIFICATION_DATA_FIELDS));
      expect(deref(doc, deref(doc, webhookSchema('verification.created').properties.data).allOf[0])).toBe(data);
      wantInvalid(validate(), dropData('verificationId'));
      wantInvalid(validate(), withData({ verificationId: 7 }));
      wantInvalid(validate(), { ...dropData('verificationId'), data: { ...dropData('verificationId').data, id: 'x' } });
    });

    it('marks the deprecated fields deprecated', () => {
      const data = deref(doc, webhookSchema(event).properties.data);
      const deprecated = Object.entries<Json>(data.properties).filter(([, s]) => s.deprecated === true).map(([k]) => k);
      expect(sorted(deprecated)).toEqual(sorted(DEPRECATED));
    });

    it('types status, requirements, collectedRequirements, externalUserId and timestamps as the Verification', () => {
      wantInvalid(validate(), withData({ status: 'pending' }));
      wantInvalid(validate(), withData({ requirements: [{ type: 'selfie' }] }));
      wantInvalid(validate(), withData({ collectedRequirements: [{ ...collected('phoneNumbers'), verified: true }] }));
      wantInvalid(validate(), withData({ externalUserId: 'partner-17' }));
      wantInvalid(validate(), withData({ updatedAt: '2026-03-14' }));
      wantInvalid(validate(), withData({ metadata: 'orderId=1' }));
      wantValid(validate(), withData({ metadata: { v: 'y'.repeat(501) } }), 'create bounds are not re-checked (P6)');
      wantValid(validate(), withData({ redirectUrl: 'northwind-app://done', reason: 'r'.repeat(201) }), 'no uri format, no length (P29, P16)');
    });

    it('verification.created carries a just-created verification: status created, every result null (rule 1 of operation 5)', () => {
      const created = webhookValidator('verification.created');
      const value = webhookExample('verification.created');
      wantValid(created, value);
      expect(value.data.status).toBe('created');
      for (const status of STATUSES.filter((s) => s !== 'created')) {
        wantInvalid(created, { ...value, data: { ...value.data, status } }, status);
      }
      const firstType = value.data.collectedRequirements[0].type;
      wantInvalid(created, { ...value, data: { ...value.data, collectedRequirements: [{ ...collected(firstType) }] } }, 'a collected result');
    });

    it('sends userId only when completed and previousUserId only when reverted', () => {
      wantValid(validate(), withData({ status: 'completed', userId: USER_ID, previousUserId: null }));
      wantInvalid(validate(), dropData('userId'), 'completed without userId');
      wantInvalid(validate(), withData({ userId: null }), 'completed with userId null');
      wantInvalid(validate(), withData({ status: 'completed', previousUserId: USER_ID }), 'completed with previousUserId');
      wantValid(validate(), withData({ status: 'reverted', userId: null, previousUserId: USER_ID }));
      wantValid(validate(), withData({ status: 'reverted', userId: null, previousUserId: null }), 'reverted before any user held it');
      const reverted = withData({ status: 'reverted', userId: null });
      wantInvalid(validate(), { ...reverted, data: without(reverted.data, 'previousUserId') }, 'reverted without previousUserId');
      for (const status of STATUSES.filter((s) => s !== 'completed' && s !== 'reverted')) {
        const base = without(without(webhookExample(event).data, 'userId'), 'previousUserId');
        const envelope = (data: Json) => ({ ...webhookExample(event), data: { ...base, status, ...data } });
        wantValid(validate(), envelope({}), `${status} without either`);
        wantValid(validate(), envelope({ userId: null, previousUserId: null }), `${status} with nulls`);
        wantInvalid(validate(), envelope({ userId: USER_ID }), `${status} with userId`);
        wantInvalid(validate(), envelope({ previousUserId: USER_ID }), `${status} with previousUserId`);
      }
    });
  });

  describe('user', () => {
    const validate = () => webhookValidator('user.created');
    const withData = (change: Json) => {
      const value = webhookExample('user.created');
      return { ...value, data: { ...value.data, ...change } };
    };

    it('has the documented fields, identified by userId, shaped as the User resource', () => {
      const data = deref(doc, webhookSchema('user.created').properties.data);
      expect(sorted(Object.keys(data.properties))).toEqual(sorted(USER_DATA_FIELDS));
      for (const event of ['user.merged', 'user.updated', 'user.deleted']) expect(deref(doc, webhookSchema(event).properties.data)).toBe(data);
      const value = webhookExample('user.created');
      wantInvalid(validate(), { ...value, data: without(value.data, 'userId') });
      wantInvalid(validate(), withData({ estimatedAge: 'over99' }));
      wantValid(validate(), withData({ dateOfBirth: null }));
      wantInvalid(validate(), withData({ phoneNumbers: [{ phoneNumber: '015112345678', createdAt: TIMESTAMP, verified: true }] }));
      wantInvalid(validate(), withData({ names: [{ firstName: 'Lena' }] }));
      wantInvalid(validate(), withData({ externalUsers: [{ id: UUID }] }));
      wantInvalid(validate(), withData({ createdAt: 'today' }));
    });
  });

  describe('shareholder', () => {
    const validate = () => webhookValidator('shareholder.verified');
    const withData = (change: Json) => {
      const value = webhookExample('shareholder.verified');
      return { ...value, data: { ...value.data, ...change } };
    };

    it('has userId, isShareholder (always true) and externalUserIds (strings)', () => {
      const data = deref(doc, webhookSchema('shareholder.verified').properties.data);
      expect(sorted(Object.keys(data.properties))).toEqual(sorted(['userId', 'isShareholder', 'externalUserIds']));
      wantValid(validate(), withData({ isShareholder: true, externalUserIds: ['a', UUID] }));
      wantValid(validate(), withData({ externalUserIds: [] }));
      wantInvalid(validate(), withData({ isShareholder: false }));
      wantInvalid(validate(), withData({ isShareholder: 'true' }));
      wantInvalid(validate(), withData({ externalUserIds: [1] }));
      wantInvalid(validate(), withData({ externalUserIds: 'a,b' }));
      wantInvalid(validate(), withData({ userId: 1 }));
      for (const field of ['userId', 'isShareholder', 'externalUserIds']) {
        const value = webhookExample('shareholder.verified');
        wantInvalid(validate(), { ...value, data: without(value.data, field) }, `without ${field}`);
      }
    });

    it('is sent every time a verification completes for a shareholder', () => {
      expect(deref(doc, doc.webhooks['shareholder.verified']).post.description).toMatch(/every time/i);
    });
  });
});

// ---------------------------------------------------------------------------

/** Markdown tables of a text: rows of cells, header first, separator dropped. */
function tablesOf(md: string): string[][][] {
  const blocks: string[][] = [];
  let block: string[] = [];
  for (const line of [...md.split('\n'), '']) {
    if (line.trim().startsWith('|')) block.push(line.trim());
    else {
      if (block.length) blocks.push(block);
      block = [];
    }
  }
  const cells = (row: string) => row.replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
  return blocks.filter((b) => b.length > 2 && /^\|(\s*:?-{3,}:?\s*\|)+$/.test(b[1])).map((b) => [b[0], ...b.slice(2)].map(cells));
}

describe('lifecycle in the overview', () => {
  const text: string = doc.info.description;
  const tables = tablesOf(text);

  it('names the nine statuses', () => {
    for (const status of STATUSES) expect(text).toContain(`\`${status}\``);
  });

  describe('state table', () => {
    const table = tables.find((t) => /From/.test(t[0][0]) && t[0].some((c) => /Next/.test(c)))!;
    const nextAt = table ? table[0].findIndex((c) => /Next/.test(c)) : -1;
    const alsoAt = table ? table[0].findIndex((c) => /Also/.test(c)) : -1;
    const TRANSITIONS: [string, string, string?][] = [
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

    it('is a Markdown table with From, Moved by, Condition, Next and Also columns', () => {
      expect(table).toBeDefined();
      expect(table[0]).toHaveLength(5);
      expect(table[0].join('|')).toMatch(/From\|Moved by\|Condition\|Next[^|]*\|Also/);
    });

    it.each(TRANSITIONS)('lists %s → %s', (from, next, also) => {
      const token = from === '(none)' ? '(none)' : `\`${from}\``;
      const rows = table.slice(1).filter((r) => r[0] === token && r[nextAt].includes(`\`${next}\``));
      expect(rows.length).toBeGreaterThan(0);
      if (also) expect(rows.map((r) => r[alsoAt]).join(' ')).toContain(`\`${also}\``);
    });

    it('lists no transition the documentation does not', () => {
      const listed = table.slice(1).flatMap((r) =>
        [...r[nextAt].matchAll(/`([a-zA-Z]+)`/g)].map((m) => `${r[0].replace(/`/g, '')} -> ${m[1]}`),
      );
      expect(sorted([...new Set(listed)])).toEqual(sorted(TRANSITIONS.map(([f, n]) => `${f} -> ${n}`)));
    });

    it('names the causes: link opened, review, revert or later analysis, validTo', () => {
      const joined = table.map((r) => r.join(' | ')).join('\n');
      expect(joined).toMatch(/opens the link/);
      expect(joined).toMatch(/manual review/);
      expect(joined).toMatch(/revert operation[^\n]*analysis[^\n]*irregularities/);
      expect(joined).toMatch(/`validTo` reached/);
      expect(joined).toMatch(/phone number belongs to another user/);
      expect(joined).toMatch(/same phone number/);
    });

    it('states final states and that every status change sends verification.updated', () => {
      expect(text).toMatch(/`completed` carries `userId`/);
      expect(text).toMatch(/`closed` and\s+`expired` are final/);
      expect(text).toMatch(/`declined`[\s\S]*`reverted`/);
      expect(text).toMatch(/Every status change sends `verification\.updated`/);
    });
  });

  describe('event sequences', () => {
    const table = tables.find((t) => /Scenario/.test(t[0][0]))!;
    const SEQUENCES: Record<string, string[]> = {
      'New user': ['verification.created', 'verification.updated', 'verification.updated', 'user.created', 'user.updated', 'user.updated'],
      Merge: ['verification.created', 'verification.updated', 'verification.updated', 'user.merged'],
      'Manual review': ['verification.created', 'verification.updated', 'verification.updated', 'verification.updated', 'user.created'],
    };

    it('is a Markdown table of the three scenarios', () => {
      expect(table).toBeDefined();
      expect(sorted(table.slice(1).map((r) => r[0]))).toEqual(sorted(Object.keys(SEQUENCES)));
    });

    it.each(Object.entries(SEQUENCES))('%s: events in order', (scenario, events) => {
      const row = table.slice(1).find((r) => r[0] === scenario)!;
      expect([...row[1].matchAll(/`([a-z]+\.[a-z]+)`/g)].map((m) => m[1])).toEqual(events);
    });

    it('says what triggers the steps', () => {
      const joined = table.map((r) => r.join(' | ')).join('\n');
      expect(joined).toMatch(/opens the link/);
      expect(joined).toMatch(/name entered/);
      expect(joined).toMatch(/phone verified/);
      expect(joined).toMatch(/face model matches an existing user/);
      expect(joined).toMatch(/review needed/);
      expect(joined).toMatch(/reviewer creates an account/);
    });
  });

  it('lists the seven events with their data types in a table', () => {
    const table = tables.find((t) => t[0].some((c) => /eventType/.test(c)))!;
    expect(table).toBeDefined();
    const pairs = Object.fromEntries(table.slice(1).map((r) => [r[1].replace(/`/g, ''), r[0].replace(/`/g, '')]));
    expect(pairs).toEqual(EVENTS);
  });

  it('states webhook delivery: signature, retry every 15 minutes, the envelope', () => {
    expect(text).toMatch(/X-SIGNATURE/);
    expect(text).toMatch(/HMAC-SHA256/);
    expect(text).toMatch(/15 minutes/);
    for (const field of ENVELOPE_FIELDS) expect(text).toContain(`\`${field}\``);
  });
});

// ---------------------------------------------------------------------------
// Issue 19: answers the audit found stricter than the documents.

describe('audit findings: answers hold what the documents state, not more', () => {
  it('a rotation answer may list the previous key first; both keys must be there (P31)', () => {
    const rotation = response('post /auth-keys', '201');
    const [fresh, previous] = example('AuthKeyCreated').authKeys;
    wantValid(rotation, { authKeys: [previous, fresh], count: 2 }, 'previous key first');
    wantValid(rotation, { authKeys: [previous, fresh, { ...previous, id: UUID, key: 'ak_live_older' }], count: 3 }, 'a further entry');
    wantInvalid(rotation, { authKeys: [fresh, { ...fresh, id: UUID }], count: 2 }, 'two active keys, no previous one');
    wantInvalid(rotation, { authKeys: [previous, { ...previous, id: UUID }], count: 2 }, 'no active key');
    wantInvalid(rotation, { authKeys: [previous, { ...fresh, active: 'true' }], count: 2 }, 'active not a boolean');
    expect(JSON.stringify(responseSchema('post /auth-keys', '201'))).not.toContain('prefixItems');
  });

  describe.each([
    ['get /verifications/{verificationId}/webhooks', 'VerificationWebhookRecords'],
    ['get /users/{userId}/webhooks', 'UserWebhookRecords'],
  ])('%s: a record of an event type added later (P24)', (key, exampleName) => {
    const list = response(key, '200');
    const page = () => example(exampleName);
    const withPayload = (payload: unknown) => {
      const value = page();
      return { ...value, webhooks: [...value.webhooks, { ...value.webhooks[0], id: UUID, payload }] };
    };
    const added = () => ({
      eventId: '5e9a1c7d-3b4f-4d62-8e0a-b7c2f9d1e456',
      dataType: 'user',
      eventType: 'user.phoneNumberRemoved',
      createdAt: TIMESTAMP,
      data: { userId: USER_ID, anything: ['new'] },
    });

    it('validates, with a new data type too, so the page stays valid', () => {
      wantValid(list, withPayload(added()), 'new event type');
      wantValid(list, withPayload({ ...added(), dataType: 'document', eventType: 'document.expired' }), 'new data type');
    });

    it('still has the documented envelope', () => {
      for (const field of ENVELOPE_FIELDS) wantInvalid(list, withPayload(without(added(), field)), `without ${field}`);
      wantInvalid(list, withPayload({ ...added(), eventId: 'not-a-uuid' }), 'eventId not a uuid');
      wantInvalid(list, withPayload({ ...added(), createdAt: 'yesterday' }), 'createdAt not a date-time');
      wantInvalid(list, withPayload({ ...added(), data: 'text' }), 'data not an object');
      wantInvalid(list, withPayload({ ...added(), eventType: 7 }), 'eventType not a string');
    });

    it('a known event type is still checked as its schema says', () => {
      const known = webhookExample('user.created');
      wantValid(list, withPayload(known));
      wantInvalid(list, withPayload({ ...known, dataType: 'verification' }), 'user.created with a verification dataType');
      wantInvalid(list, withPayload({ ...known, data: without(known.data, 'userId') }), 'user.created without data.userId');
      wantInvalid(list, withPayload({ ...webhookExample('verification.created'), data: {} }), 'verification.created with empty data');
    });
  });

  it('phoneNumbers and requirements may be absent from answers and webhook data, like other optional input (P8)', () => {
    const lean = (value: Json) => without(without(value, 'phoneNumbers'), 'requirements');
    wantValid(verification, lean(completed()), 'Verification');
    wantValid(createdVerification, lean(example('CreatedVerificationMinimal')), 'create answer');
    for (const event of ['verification.created', 'verification.updated']) {
      const body = webhookExample(event);
      wantValid(webhookValidator(event), { ...body, data: lean(body.data) }, event);
    }
    // Present, they keep their documented shapes; collectedRequirements stays required.
    wantInvalid(verification, { ...completed(), phoneNumbers: null }, 'phoneNumbers null');
    wantInvalid(verification, { ...completed(), requirements: null }, 'requirements null');
    wantInvalid(verification, without(lean(completed()), 'collectedRequirements'), 'without collectedRequirements');
    for (const key of ['get /verifications/{verificationId}', 'post /verifications']) {
      const schema = responseSchema(key, key.startsWith('post') ? '201' : '200');
      expect(requiredOf(schema), key).not.toContain('phoneNumbers');
      expect(requiredOf(schema), key).not.toContain('requirements');
    }
  });
});
