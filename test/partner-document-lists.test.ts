// The partner list queries: paging, the comma-separated filters, and the filters of
// operations 7 and 12 (L162-L177, L249-L257); an added parameter: partner-document.test.ts.
import { describe, expect, it } from 'vitest';
import { type Json, wantInvalid, wantValid } from './helpers/openapi.js';
import * as partner from './helpers/partner-document.js';

/**
 * A documented rule of one query parameter: its source, the operation and
 * parameter, the keywords its schema has (and, for a comma-separated
 * filter, `style: form, explode: false` on the parameter), the values it
 * takes and those it refuses.
 */
type ParamFact = [source: string, at: string, keywords: Json, valid: unknown[], invalid: unknown[]];
const COMMA = { style: 'form', explode: false };
const dateTimes = ['2026-03-01T00:00:00.000Z', '2026-03-01T01:00:00+01:00'];
const notDateTimes = ['2026-03-01', 'yesterday'];

const FACTS: ParamFact[] = [
  // Whole numbers (P7).
  ...partner.PAGED.flatMap((key): ParamFact[] => [
    ['L249 P7', `${key} ?page`, { type: 'integer', minimum: 0, default: 0 }, [0, 1, 100], [-1]],
    ['L250 P7', `${key} ?limit`, { type: 'integer', minimum: 0, maximum: 50, default: 15 }, [0, 15, 50], [-1, 51]],
  ]),
  [
    'L166',
    'get /verifications ?phoneNumber',
    COMMA,
    [['+4915112345678', '+31612345678']],
    [['015112345678'], ['+49 151 12345678']],
  ],
  [
    'L167',
    'get /verifications ?externalUserId',
    COMMA,
    [[partner.UUID, '3b1f8e2a-6c4d-4f0e-9a7b-5d2c8e1f4a90']],
    [['partner-17']],
  ],
  ['L168', 'get /verifications ?userId', COMMA, [[partner.USER_ID, 'any-id']], [[17]]],
  ['L169', 'get /verifications ?status', COMMA, [partner.STATUSES], [['pending']]],
  ['L170', 'get /verifications ?from', {}, dateTimes, notDateTimes],
  ['L171', 'get /verifications ?to', {}, dateTimes, notDateTimes],
  // No default (P20).
  ['L172 P20', 'get /verifications ?datetimeField', {}, ['createdAt', 'updatedAt', 'validTo'], ['expiresAt']],
  ['L177', 'get /users ?phoneNumber', COMMA, [['+4915112345678']], [['4915112345678']]],
  ['L177', 'get /users ?externalUserId', COMMA, [[partner.UUID]], [['x']]],
  ['L177', 'get /users ?id', COMMA, [[partner.USER_ID]], [[1]]],
  ['L177', 'get /users ?isShareholder', { type: 'boolean' }, [true, false], ['yes']],
];

describe('list queries', () => {
  it.each(Object.keys(partner.QUERY_PARAMETERS))('%s has its documented query parameters, none required', (key) => {
    const params = partner.paramsOf(key);
    partner.expectDocumented(Object.keys(params), partner.QUERY_PARAMETERS[key], `query parameters of ${key}`);
    for (const name of partner.QUERY_PARAMETERS[key]) {
      expect(params[name].param.in, name).toBe('query');
      expect(params[name].param.required ?? false, name).toBe(false);
    }
  });

  it.each(FACTS)('%s %s', (_source, at, keywords, valid, invalid) => {
    const [key, name] = at.split(' ?');
    const { param, schemaPtr } = partner.paramsOf(key)[name];
    const schema = partner.nodeAt(schemaPtr);
    if (keywords === COMMA) {
      expect(param).toMatchObject(COMMA);
      expect(schema.type).toBe('array');
    } else expect(schema).toMatchObject(keywords);
    const validate = partner.validatorAt(schemaPtr);
    for (const value of valid) wantValid(validate, value, JSON.stringify(value));
    for (const value of invalid) wantInvalid(validate, value, JSON.stringify(value));
  });

  it('the status filter takes the nine statuses; from is "more recent than"; datetimeField has no default', () => {
    const params = partner.paramsOf('get /verifications');
    partner.expectDocumentedValues(
      partner.resolve(partner.nodeAt(params.status.schemaPtr).items).enum,
      partner.STATUSES,
      'values of the status filter',
    );
    expect(params.from.param.description).toMatch(/more recent/i);
    const field = partner.nodeAt(params.datetimeField.schemaPtr);
    expect(field.enum).toEqual(['createdAt', 'updatedAt', 'validTo']);
    expect(field.default).toBeUndefined();
  });

  it.each(partner.PAGED)('%s: answers the total number of results in an integer count (L257)', (key) => {
    const schema = partner.responseSchema(key, key.startsWith('post') ? '201' : '200');
    expect(schema.required).toContain('count');
    const count = partner.resolve(schema.properties.count);
    expect(count.type).toBe('integer');
    expect(count.description).toMatch(/total/i);
  });

  it('a paged list example counts at least the entries it shows (the total across pages)', () => {
    const lists = Object.entries(partner.doc.components.examples as Record<string, Json>).filter(
      ([, e]) => typeof e.value?.count === 'number',
    );
    expect(lists.length).toBeGreaterThan(5);
    for (const [name, { value }] of lists) {
      const items = Object.values(value).find(Array.isArray) as unknown[];
      expect(value.count, name).toBeGreaterThanOrEqual(items.length);
    }
  });

  it('list verifications answers {verifications, count}, each item a full Verification (L118, L174)', () => {
    const list = partner.response('get /verifications', '200');
    wantValid(list, partner.example('VerificationListPage'));
    wantValid(list, { verifications: [partner.completed()], count: 1 });
    wantInvalid(list, { verifications: [partner.completed()] });
    const created = partner.example('CreatedVerificationFull');
    wantInvalid(list, { verifications: [created], count: 1 }, 'item without updatedAt');
    wantInvalid(list, { verifications: [{ ...partner.completed(), userId: null }], count: 1 });
  });
});
