// The v2 read API document holds every fact of the service's v2
// documentation. Each expectation below restates one of those facts; dropping
// or loosening it in openapi/v2 makes a test fail.
import { describe, expect, it } from 'vitest';
import {
  ABSENT,
  checkFieldFacts,
  deref,
  type FieldFact,
  loadBundle,
  operationsOf,
  validatorFor,
} from './helpers/openapi.js';

const doc = loadBundle('v2');
const v = validatorFor('v2');
const schemas = doc.components.schemas;

// The 249 ISO 3166-1 alpha-2 codes the service accepts, in its order.
const COUNTRIES =
  'AF AX AL DZ AS AD AO AI AQ AG AR AM AW AU AT AZ BS BH BD BB BY BE BZ BJ BM BT BO BQ BA BW BV BR IO BN BG BF BI CV KH CM CA KY CF TD CL CN CX CC CO KM CG CD CK CR CI HR CU CW CY CZ DK DJ DM DO EC EG SV GQ ER EE SZ ET FK FO FJ FI FR GF PF TF GA GM GE DE GH GI GR GL GD GP GU GT GG GN GW GY HT HM VA HN HK HU IS IN ID IR IQ IE IM IL IT JM JP JE JO KZ KE KI KP KR KW KG LA LV LB LS LR LY LI LT LU MO MG MW MY MV ML MT MH MQ MR MU YT MX FM MD MC MN ME MS MA MZ MM NA NR NP NL NC NZ NI NE NG NU NF MK MP NO OM PK PW PS PA PG PY PE PH PN PL PT PR QA RE RO RU RW BL SH KN LC MF PM VC WS SM ST SA SN RS SC SL SG SX SK SI SB SO ZA GS SS ES LK SD SR SJ SE CH SY TW TJ TZ TH TL TG TK TO TT TN TR TM TC TV UG UA AE GB US UM UY UZ VU VE VN VG VI WF EH YE ZM ZW'.split(
    ' ',
  );
const STATUSES = ['CREATED', 'STARTED', 'EXPIRED', 'USER_DATA_COLLECTED', 'REVIEW', 'APPROVED', 'DECLINED'];

const approved = deref(doc, doc.components.examples.VerificationApproved).value;
const valid = (name: string, value: unknown) => v.schema(name)(value);
const withField = (field: string, value: unknown) => ({ ...approved, [field]: value });

describe('document', () => {
  it('has exactly the two documented paths, GET only, the list path with its trailing slash', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(['/v2/verifications/', '/v2/verifications/{id}']);
    const operations = operationsOf(doc).map((o) => `${o.method} ${o.key}`);
    expect(operations.sort()).toEqual(['get /v2/verifications/', 'get /v2/verifications/{id}']);
  });
});

describe('Verification', () => {
  const FIELDS = [
    'id',
    'externalId',
    'country',
    'phoneNo',
    'workflowId',
    'requirements',
    'url',
    'status',
    'metadata',
    'successUrl',
    'errorUrl',
    'supportUrl',
    'identityDocument',
    'faceScan',
    'reviewResult',
    'createdBy',
    'expiresAt',
    'createdAt',
    'updatedAt',
  ];

  const NULLABLE = ['workflowId', 'identityDocument', 'faceScan', 'reviewResult'];

  it('has the 19 documented fields, all sent, the nullable objects as 3.1 type arrays', () => {
    expect(Object.keys(schemas.Verification.properties).sort()).toEqual([...FIELDS].sort());
    expect([...schemas.Verification.required].sort()).toEqual([...FIELDS].sort());
    expect(valid('Verification', approved)).toBe(true);
    for (const name of ['IdentityDocument', 'FaceScan', 'ReviewResult']) {
      expect(schemas[name].type).toEqual(['object', 'null']);
    }
    expect(schemas.Verification.properties.workflowId.type).toEqual(['string', 'null']);
  });

  it('takes country from the complete documented code list and status from the seven values', () => {
    expect(schemas.CountryCode.enum).toEqual(COUNTRIES);
    expect(COUNTRIES).toHaveLength(249);
    expect(schemas.VerificationStatus.enum).toEqual(STATUSES);
  });

  // Null exactly where documented: workflowId and the three collected objects.
  const timestamps = ['2026-03-14T09:26:53.589Z', '2026-03-14T09:26:53Z', '2026-03-14T10:26:53.589123+01:00'];
  checkFieldFacts(v.schema('Verification'), () => ({ ...approved }), [
    ...FIELDS.map(
      (field): FieldFact =>
        NULLABLE.includes(field) ? ['L15 L23', field, [null], [ABSENT]] : ['L11-L29', field, [], [ABSENT, null]],
    ),
    ['L13 L31', 'country', ['NO'], ['XK', 'de']],
    ['L18', 'status', STATUSES, ['PENDING']],
    // UTC with millisecond precision, as documented.
    [
      'L27',
      'expiresAt',
      ['2026-03-14T09:26:53.589Z', '2026-03-14T09:26:53.589+00:00'],
      ['2026-03-14', '2026-03-14T09:26:53Z', '2026-03-14T09:26:53.5Z', '2026-03-14T10:26:53.589+01:00'],
    ],
    // Any date-time for the timestamps whose precision is not stated.
    ['V15', 'createdAt', timestamps, ['2026-03-14']],
    ['V15', 'updatedAt', timestamps, ['2026-03-14']],
    [
      'L16 L66',
      'requirements',
      [[{ type: 'DOCUMENT_SCAN' }, { type: 'FACE_SCAN' }], [{ type: 'LIVENESS_CHECK' }]],
      [[{}]],
    ],
    ['L19', 'metadata', [{ anything: 1, nested: { a: true } }], ['plain text']],
  ]);
});

describe('identityDocument, faceScan and reviewResult', () => {
  const DOC_FIELDS = [
    'type',
    'country',
    'serialNo',
    'nationalNo',
    'firstName',
    'lastName',
    'dateOfBirth',
    'placeOfBirth',
    'nationality',
    'expiryAt',
    'issuedAt',
    'issuingAuthority',
    'placeOfIssue',
    'createdAt',
    'updatedAt',
  ];

  // The tables list each object's fields without an "optional" marker but do
  // not say which are always sent: that every one is sent is an assumption
  // (V10), held by the schema; each field keeps its type.
  // Dates as YYYY-MM-DD, timestamps as date-time.
  const dates = ['1991-07-23'];
  const notDates = ['23.07.1991', '1991-07-23T00:00:00.000Z'];
  const stamps: [string[], string[]] = [['2026-03-14T09:31:40.207Z'], ['2026-03-14']];
  describe.each<[string, string, string[], () => object, FieldFact[]]>([
    [
      'identityDocument',
      'IdentityDocument',
      DOC_FIELDS,
      () => approved.identityDocument,
      [
        ['L42', 'dateOfBirth', dates, notDates],
        ['L45', 'expiryAt', dates, notDates],
        ['L46', 'issuedAt', dates, notDates],
        ['L49', 'createdAt', ...stamps],
        ['L50', 'updatedAt', ...stamps],
        ['L36 L66', 'type', ['RESIDENCE_PERMIT'], []],
      ],
    ],
    [
      'faceScan',
      'FaceScan',
      ['ageEstimation', 'createdAt', 'updatedAt'],
      () => approved.faceScan,
      // `OVER_<n>` is shown, the complete set is not.
      [['L55 V16', 'ageEstimation', ['OVER_18', 'OVER_21', 'OVER_99', 'UNDER_18', 'UNKNOWN', 'under8'], [18]]],
    ],
    [
      'reviewResult',
      'ReviewResult',
      ['category', 'reason', 'sensitive'],
      () => ({ category: 'FRAUD', reason: 'FACE_MISMATCH', sensitive: true }),
      [['L64', 'sensitive', [true], ['yes']]],
    ],
  ])('%s', (field, name, fields, value, facts) => {
    it('has exactly the listed fields, each required; is an object (V10)', () => {
      expect(Object.keys(schemas[name].properties).sort()).toEqual([...fields].sort());
      expect([...(schemas[name].required ?? [])].sort()).toEqual([...fields].sort());
      expect(valid('Verification', withField(field, value())), 'complete').toBe(true);
      expect(valid('Verification', withField(field, 'text')), 'a string').toBe(false);
    });
    checkFieldFacts((object: unknown) => valid('Verification', withField(field, object)), value, [
      ...fields.map((f): FieldFact => ['V10', f, [], [ABSENT, 42]]),
      ...facts,
    ]);
  });

  // The complete value sets are not shown (L66): open strings, no enum and no pattern.
  it.each([
    ['Requirement', 'type'],
    ['IdentityDocument', 'type'],
    ['FaceScan', 'ageEstimation'],
    ['ReviewResult', 'category'],
    ['ReviewResult', 'reason'],
  ])('L66 %s.%s is an open value set', (name, field) => {
    expect(schemas[name].properties[field].enum).toBeUndefined();
    expect(schemas[name].properties[field].pattern).toBeUndefined();
  });
});

describe('list verifications', () => {
  const list = operationsOf(doc).find((o) => o.key === '/v2/verifications/')!.operation;
  const params = Object.fromEntries(
    list.parameters.map((p: object) => deref(doc, p)).map((p: { name: string }) => [p.name, p]),
  );

  it('answers items (Verification objects) and an integer count', () => {
    const ok = { items: [approved], count: 1 };
    expect(valid('VerificationList', ok)).toBe(true);
    expect(valid('VerificationList', { items: [approved] })).toBe(false);
    expect(valid('VerificationList', { ...ok, count: 1.5 })).toBe(false);
    expect(valid('VerificationList', { ...ok, items: [{ id: 'x' }] })).toBe(false);
  });

  // The documented rows (L96-L102); names and defaults are decided (L104).
  const inclusive = expect.stringMatching(/inclusive/);
  const PARAMETERS: [string, string, object][] = [
    ['L100', 'statuses', { style: 'form', explode: true, schema: { type: 'array' } }],
    ['L96 V2', 'page', { schema: { type: 'number', minimum: 0, default: 0 } }],
    ['L97 V3', 'pageSize', { schema: { type: 'integer', minimum: 1, maximum: 50, default: 15 } }],
    ['L98', 'id', { schema: { type: 'string' } }],
    ['L99', 'externalId', { schema: { type: 'string' } }],
    ['L101', 'createdFrom', { schema: { type: 'string', format: 'date-time' }, description: inclusive }],
    ['L102', 'createdTo', { schema: { type: 'string', format: 'date-time' }, description: inclusive }],
  ];

  it('has seven optional query parameters, all in the query', () => {
    expect(Object.keys(params).sort()).toEqual(PARAMETERS.map(([, name]) => name).sort());
    for (const p of Object.values<{ in: string; required?: boolean }>(params)) {
      expect(p.in).toBe('query');
      expect(p.required ?? false).toBe(false);
    }
  });

  it.each(PARAMETERS)('%s %s', (_source, name, keywords) => {
    expect(params[name]).toMatchObject(keywords);
  });

  it('statuses take the status values', () => {
    expect(deref(doc, params.statuses.schema.items).enum).toEqual(STATUSES);
  });
});

describe('authentication and errors', () => {
  const ops = operationsOf(doc);
  const DOCUMENTED = {
    '400': { statusCode: 400, code: 'VALIDATION_ERROR', message: 'Input data is invalid. Please check the details.' },
    '401': { statusCode: 401, code: 'UNAUTHORIZED_ERROR', message: 'Unauthorized' },
    '404': { statusCode: 404, code: 'NOT_FOUND_ERROR', message: 'Not found' },
  } as const;

  it('declares 400, 401 and 404 exactly where documented', () => {
    const statuses = Object.fromEntries(
      ops.map((o) => [o.operation.operationId, Object.keys(o.operation.responses).sort()]),
    );
    expect(statuses).toEqual({
      getVerification: ['200', '400', '401', '404'],
      listVerifications: ['200', '400', '401'],
    });
  });

  it.each(
    ops.flatMap((o) =>
      (['400', '401', '404'] as const)
        .filter((s) => o.operation.responses[s])
        .map((s) => [o.operation.operationId, s, o] as const),
    ),
  )(
    '%s %s: the schema fixes the documented code and every example carries status, code and message',
    (_id, status, o) => {
      const media = deref(doc, o.operation.responses[status]).content['application/json'];
      const response = o.operation.responses[status];
      const ptr = `${response.$ref ?? `${o.ptr}/responses/${status}`}/content/application~1json/schema`;
      const validate = v.at(ptr);
      const documented = DOCUMENTED[status];
      for (const example of Object.values<{ value: object }>(media.examples).map((e) => deref(doc, e))) {
        expect(example.value).toMatchObject(documented);
      }
      const sample =
        status === '400'
          ? { ...documented, details: [{ field: 'id', reasonCode: 'REQUIRED', params: {} }] }
          : documented;
      expect(validate(sample)).toBe(true);
      expect(validate({ ...sample, code: 'OTHER_ERROR' })).toBe(false);
      expect(validate({ ...sample, statusCode: 500 })).toBe(false);
    },
  );

  it('validation errors list details with field, reasonCode and params', () => {
    const base = DOCUMENTED['400'];
    expect(
      valid('ValidationError', { ...base, details: [{ field: 'pageSize', reasonCode: 'REQUIRED', params: {} }] }),
    ).toBe(true);
    expect(valid('ValidationError', base)).toBe(false);
    for (const missing of ['field', 'reasonCode', 'params']) {
      const entry: Record<string, unknown> = { field: 'id', reasonCode: 'REQUIRED', params: {} };
      delete entry[missing];
      expect(valid('ValidationError', { ...base, details: [entry] }), missing).toBe(false);
    }
    expect(valid('Error', { statusCode: '400', code: 'X', message: 'y' })).toBe(false);
    const statusCode = doc.components.schemas.Error.properties.statusCode;
    expect([statusCode.minimum, statusCode.maximum]).toEqual([100, 599]);
  });

  it('every operation has several success examples', () => {
    for (const { operation } of ops) {
      const examples = Object.keys(operation.responses['200'].content['application/json'].examples);
      expect(examples.length).toBeGreaterThanOrEqual(2);
    }
  });
});
