// The partner integration API document holds every fact of the service's
// partner documentation; this file: the whole document (OpenAPI version,
// server, the 18 operations and their paths, media types, statuses, the
// headers of every call, deprecations), authentication with `X-Auth-Key` and
// key rotation, the partner and its auth keys (operations 1 to 4). Each
// expectation restates one of those facts (or, where the documentation is
// silent, the decision recorded in openapi/DECISIONS.md); dropping or
// loosening it in openapi/partner makes a test fail.
import { describe, expect, it } from 'vitest';
import { deref, operationsOf, type Json } from './helpers/openapi.js';
import {
  doc, OPERATIONS, DEPRECATED, sub, nodeAt, pathOps, op, responsePtr, response, body,
  responseSchema, bodySchema, paramsOf, example, without, sorted, wantValid, wantInvalid,
  verification,
} from './helpers/partner-document.js';

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
