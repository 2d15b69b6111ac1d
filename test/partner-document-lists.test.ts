// The partner integration API document holds every fact of the service's
// partner documentation; this file: the list queries: paging, the comma-
// separated filters, and the filters of operations 7 and 12. Each expectation
// restates one of those facts (or, where the documentation is silent, the
// decision recorded in openapi/DECISIONS.md); dropping or loosening it in
// openapi/partner makes a test fail.
import { describe, expect, it } from 'vitest';
import { deref, type Json } from './helpers/openapi.js';
import { ADDED_PARAMETERS } from './helpers/partner-additions.js';
import {
  doc,
  OPERATIONS,
  PAGED,
  QUERY_PARAMETERS,
  STATUSES,
  UUID,
  USER_ID,
  nodeAt,
  validatorAt,
  response,
  responseSchema,
  paramsOf,
  example,
  sorted,
  expectDocumentedValues,
  wantValid,
  wantInvalid,
  completed,
} from './helpers/partner-document.js';

/** An operation's parameters the documentation gives it: those listed as added are checked in test/partner-document.test.ts. */
const documentedNames = (key: string) =>
  Object.keys(paramsOf(key)).filter((name) => !ADDED_PARAMETERS[key]?.includes(name));

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
    // Whole numbers (P7).
    expect(nodeAt(page.schemaPtr)).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
    expect(nodeAt(limit.schemaPtr)).toMatchObject({ type: 'integer', minimum: 0, maximum: 50, default: 15 });
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

  it('a paged list example counts at least the entries it shows (the total across pages)', () => {
    const lists = Object.entries(doc.components.examples as Record<string, Json>).filter(
      ([, e]) => typeof e.value?.count === 'number',
    );
    expect(lists.length).toBeGreaterThan(5);
    for (const [name, { value }] of lists) {
      const items = Object.values(value).find(Array.isArray) as unknown[];
      expect(value.count, name).toBeGreaterThanOrEqual(items.length);
    }
  });

  describe('list verifications (operation 7)', () => {
    const params = paramsOf('get /verifications');

    it('has paging, the four comma-separated filters and the time window', () => {
      expect(sorted(documentedNames('get /verifications'))).toEqual(sorted(QUERY_PARAMETERS['get /verifications']));
      for (const { param } of Object.values(params)) {
        expect(param.in).toBe('query');
        expect(param.required ?? false).toBe(false);
      }
    });

    it.each(['phoneNumber', 'externalUserId', 'userId', 'status'])(
      '%s is comma-separated (form, not exploded)',
      (name) => {
        expect(params[name].param).toMatchObject({ style: 'form', explode: false });
        expect(nodeAt(params[name].schemaPtr).type).toBe('array');
      },
    );

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
      expectDocumentedValues(
        deref(doc, nodeAt(params.status.schemaPtr).items).enum,
        STATUSES,
        'values of the status filter',
      );
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
      expect(sorted(documentedNames('get /users'))).toEqual(sorted(QUERY_PARAMETERS['get /users']));
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
