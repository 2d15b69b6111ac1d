// The breaking-change gate's structural diff (scripts/lib/contract-diff.mjs):
// where and as what kind each change is reported, on mutated copies of the
// bundles' snapshot (edits as in test/fixtures/diff-mutations.ts, whose
// corpus test/diff-corpus.test.ts judges).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APIS } from '../scripts/lib/apis.mjs';
import { diffDocuments } from '../scripts/lib/contract-diff.mjs';
import { ROOT } from '../scripts/lib/paths.mjs';
import { snapshotBundle } from './fixtures/bundles.js';
import { type Edit, all, del, drop, merge, push, set } from './fixtures/diff-mutations.js';
import type { Json } from '../src/contract/json.js';

type Change = { location: string; kind: string; detail: string; about: string };
type Result = { breaking: Change[]; review: Change[]; deprecated: Change[]; nonBreaking: Change[] };
const NO_CHANGE = { breaking: [], review: [], deprecated: [], nonBreaking: [] };

const v2 = snapshotBundle('v2');
const partner = snapshotBundle('partner');
/** Diff of a document against a copy of it with the edits made. */
function mutated(base: Json, ...edits: Edit[]): Result {
  const head = structuredClone(base);
  all(...edits)(head);
  return diffDocuments(base, head);
}

const GET = 'GET /v2/verifications/{id}';
const LIST = 'GET /v2/verifications/';
const POST = 'POST /verifications';
const HOOK = 'webhook verification.created';
const DELETED = 'webhook user.deleted';
const EVENT = 'S/VerificationCreatedEvent';
const CREATE = 'S/VerificationCreate/properties';
const PHONE = 'S/Verification/properties/phoneNo';
const COUNT = 'S/VerificationList/properties/count';
const EXTERNAL_ID = { $ref: '#/components/parameters/ExternalIdFilter' };
const TENANT = { name: 'tenant', in: 'query', required: true, schema: { type: 'string' } };
const NO_FIRST_NAME = all(
  del('S/IdentityDocument/properties/firstName'),
  drop('S/IdentityDocument/required', 'firstName'),
);
const NO_REVIEW = drop('S/VerificationStatus/enum', 'REVIEW');
const CANCELLED = push('S/VerificationStatus/enum', 'CANCELLED');
const COUNTRY = all(set(`${CREATE}/country`, { type: 'string' }), push('S/VerificationCreate/required', 'country'));
const NOTE = all(set(`${EVENT}/properties/note`, { type: 'string' }), push(`${EVENT}/required`, 'note'));
const ACCOUNT = set('S/UserDeletedEvent/properties/dataType', { type: 'string', enum: ['user', 'account'] });

// Each row: where a change is reported, its kind and a part of its detail, and the edit that makes it.
type Row = [location: string, kind: string, detail: string | RegExp, edit: Edit];
const BREAKING: [base: string, doc: Json, rows: Row[]][] = [
  [
    'v2',
    v2,
    [
      [LIST, 'parameter-removed', 'query parameter externalId removed', drop(`[${LIST}]/parameters`, EXTERNAL_ID)],
      [GET, 'field-removed', 'field identityDocument.firstName removed', NO_FIRST_NAME],
      [LIST, 'field-removed', 'field items[].identityDocument.firstName removed', NO_FIRST_NAME],
      // Inside allOf (error bodies).
      [GET, 'field-removed', 'response 400: field details removed', del('S/Error/properties/details')],
      [LIST, 'field-removed', 'response 401: field details removed', del('S/Error/properties/details')],
      [GET, 'field-became-optional', 'field url became optional', drop('S/Verification/required', 'url')],
      [GET, 'response-removed', 'response 404 removed', del(`[${GET}]/responses/404`)],
      [
        LIST,
        'parameter-added-required',
        'query parameter tenant added (required)',
        push(`[${LIST}]/parameters`, TENANT),
      ],
      [LIST, 'parameter-became-required', 'pageSize became required', set('P/PageSize/required', true)],
      // The statuses filter narrowed; in a response the same removal only narrows what consumers receive.
      [LIST, 'enum-values-removed', /query parameter statuses: field \[\]: enum values removed: "REVIEW"/, NO_REVIEW],
      // Consumers handling every status no longer do.
      [GET, 'enum-values-added', /response 200: field status: enum values added: "CANCELLED"/, CANCELLED],
      [LIST, 'bound-narrowed', 'pageSize: maximum 50 → 40', set('P/PageSize/schema/maximum', 40)],
      [LIST, 'bound-narrowed', 'page: minimum 0 → 1', set('P/Page/schema/minimum', 1)],
      [LIST, 'bound-narrowed', 'id: maxLength none → 36', set('P/IdFilter/schema/maxLength', 36)],
      [LIST, 'type-changed', 'query parameter id: type string → integer', set('P/IdFilter/schema/type', 'integer')],
      [LIST, 'type-narrowed', 'page: type number → integer', set('P/Page/schema/type', 'integer')],
      [LIST, 'type-changed', 'response 200: field count: type integer → string', set(COUNT, { type: 'string' })],
      [GET, 'type-widened', 'field phoneNo: type string → string | null', set(`${PHONE}/type`, ['string', 'null'])],
    ],
  ],
  [
    'partner',
    partner,
    [
      [POST, 'field-added-required', 'request body: field country added (required)', COUNTRY],
      [POST, 'field-became-required', 'field reason became required', push('S/VerificationCreate/required', 'reason')],
      [POST, 'bound-narrowed', 'field reason: maxLength 200 → 10', set(`${CREATE}/reason/maxLength`, 10)],
      [POST, 'bound-narrowed', 'field phoneNumbers: maxItems none → 2', set(`${CREATE}/phoneNumbers/maxItems`, 2)],
      [
        'POST /users/external-users',
        'bound-narrowed',
        'field externalUsers[].phoneNumber: maxLength none → 5',
        set('S/ExternalUsersCreate/properties/externalUsers/items/properties/phoneNumber/maxLength', 5),
      ],
      // D1: a removed request-body field is breaking, which redocly diff rated a patch.
      [POST, 'field-removed', 'request body: field author removed', del(`${CREATE}/author`)],
      // Webhook payloads count as output.
      [DELETED, 'field-removed', 'payload: field data.firstName removed', del('S/UserEventData/properties/firstName')],
      [DELETED, 'enum-values-added', 'payload: field dataType: enum values added: "account"', ACCOUNT],
      [DELETED, 'webhook-removed', 'webhook removed', del('webhooks/user.deleted')],
      // A path that keeps its other operations.
      ['PUT /partners', 'operation-removed', 'operation removed', del('[PUT /partners]')],
    ],
  ],
];
// Changes that pass: nothing breaking or to review.
const NON_BREAKING: [base: string, doc: Json, rows: Row[]][] = [
  ['v2', v2, [[LIST, 'bound-widened', 'maximum 50 → 100', set('P/PageSize/schema/maximum', 100)]]],
  [
    'partner',
    partner,
    [
      [
        'GET /verifications',
        'enum-values-added',
        'query parameter datetimeField',
        push('P/DatetimeField/schema/enum', 'deletedAt'),
      ],
      [POST, 'field-added', 'request body: field note added (optional)', set(`${CREATE}/note`, { type: 'string' })],
      [HOOK, 'field-added', 'payload: field note added (required)', NOTE],
    ],
  ],
];

const find = (list: Change[], location: string, kind: string, detail: string | RegExp) =>
  list.find(
    (c) =>
      c.location === location &&
      c.kind === kind &&
      (typeof detail === 'string' ? c.detail.includes(detail) : detail.test(c.detail)),
  );

describe.each(BREAKING)('breaking changes fail the gate (%s)', (_base, doc, rows) => {
  it.each(rows)('%s %s: %s', (location, kind, detail, edit) => {
    const result = mutated(doc, edit);
    expect(find(result.breaking, location, kind, detail), JSON.stringify(result.breaking, null, 2)).toBeTruthy();
  });
});

describe.each(NON_BREAKING)('non-breaking changes pass the gate and are listed (%s)', (_base, doc, rows) => {
  it.each(rows)('%s %s: %s', (location, kind, detail, edit) => {
    const result = mutated(doc, edit);
    expect([...result.breaking, ...result.review], 'nothing breaking or to review').toEqual([]);
    expect(find(result.nonBreaking, location, kind, detail), JSON.stringify(result.nonBreaking, null, 2)).toBeTruthy();
  });
});

describe('diffDocuments', () => {
  it.each(APIS.map((a) => a.name))('finds no change between the live %s bundle and itself', (api) => {
    const doc = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'openapi', `${api}.json`), 'utf8'));
    expect(diffDocuments(doc, structuredClone(doc))).toEqual(NO_CHANGE);
  });

  it('a removed operation is one breaking change', () => {
    const result = mutated(v2, del('[/v2/verifications/]'));
    expect(find(result.breaking, LIST, 'operation-removed', 'List verifications')).toBeTruthy();
    expect(result.breaking).toHaveLength(1);
  });

  it('a change that breaks a request is listed as non-breaking where it narrows a response, and the other way round', () => {
    const narrowed = mutated(v2, NO_REVIEW);
    expect(find(narrowed.nonBreaking, GET, 'enum-values-removed', 'response 200: field status')).toBeTruthy();
    const widened = mutated(v2, CANCELLED);
    expect(find(widened.nonBreaking, LIST, 'enum-values-added', 'query parameter statuses')).toBeTruthy();
  });

  it('a renamed path parameter is the same endpoint', () => {
    const renamed = mutated(
      v2,
      (d) => {
        d.paths['/v2/verifications/{verificationId}'] = d.paths['/v2/verifications/{id}'];
        delete d.paths['/v2/verifications/{id}'];
      },
      set('P/VerificationId/name', 'verificationId'),
    );
    expect(renamed).toEqual(NO_CHANGE);
  });
});

describe('deprecations pass the gate as a verdict of their own, to tell partners', () => {
  /** The deprecations of a result that holds nothing else. */
  const only = (result: Result) => {
    expect({ ...result, deprecated: [] }, 'nothing but deprecations').toEqual(NO_CHANGE);
    return result.deprecated;
  };
  const detailsOf = (base: Json, edit: Edit) => only(mutated(base, edit)).map((c) => c.detail);

  it('a field of a shared schema: named once by its schema, at every operation and webhook that carries it', () => {
    const deprecated = only(mutated(partner, set('S/Requirement/properties/type/deprecated', true)));
    expect(new Set(deprecated.map((c) => c.about))).toEqual(new Set(['schema Requirement: field type deprecated']));
    expect(new Set(deprecated.map((c) => c.kind))).toEqual(new Set(['deprecated']));
    const locations = new Set(deprecated.map((c) => c.location));
    for (const location of [
      'POST /verifications',
      'GET /verifications/{verificationId}',
      'webhook verification.created',
      'webhook verification.updated',
    ]) {
      expect(locations, location).toContain(location);
    }
    expect(deprecated.map((c) => c.detail)).toContain('request body: field requirements[].type deprecated');
  });

  it('beside a $ref, the use is deprecated, named by the schema that holds it, not the schema it refers to', () => {
    const deprecated = only(mutated(partner, set('S/Verification/properties/externalUserId/deprecated', true)));
    expect(new Set(deprecated.map((c) => c.about))).toEqual(
      new Set(['schema Verification: field externalUserId deprecated']),
    );
  });

  it('a whole named schema, an operation, a webhook, a parameter and a response header', () => {
    expect(only(mutated(v2, set('S/Verification/deprecated', true))).map((c) => c.about)).toEqual([
      'schema Verification deprecated',
      'schema Verification deprecated',
    ]);
    expect(only(mutated(v2, set(`[${LIST}]/deprecated`, true)))).toEqual([
      {
        location: LIST,
        kind: 'deprecated',
        detail: 'operation deprecated (List verifications)',
        about: 'operation deprecated (List verifications)',
      },
    ]);
    expect(detailsOf(partner, set('[webhook user.deleted]/deprecated', true))).toEqual([
      'webhook deprecated (User deleted)',
    ]);
    expect(detailsOf(v2, set('P/PageSize/deprecated', true))).toEqual(['query parameter pageSize deprecated']);
    const withHeader = structuredClone(partner);
    set('[GET /partners]/responses/200/headers', { 'X-Trace': { schema: { type: 'string' } } })(withHeader);
    expect(detailsOf(withHeader, set('[GET /partners]/responses/200/headers/X-Trace/deprecated', true))).toEqual([
      'response 200: header X-Trace deprecated',
    ]);
  });

  it('withdrawing a deprecation is a plain non-breaking change; deprecating and breaking at once reports both', () => {
    const withdrawn = mutated(partner, del('S/Verification/properties/phoneNumber/deprecated'));
    expect({ ...withdrawn, nonBreaking: [] }).toEqual(NO_CHANGE);
    expect(withdrawn.nonBreaking).toContainEqual(
      expect.objectContaining({
        location: 'GET /verifications/{verificationId}',
        kind: 'undeprecated',
        detail: 'response 200: field phoneNumber no longer deprecated',
      }),
    );
    const both = mutated(partner, merge(`${CREATE}/reason`, { deprecated: true, maxLength: 10 }));
    expect(both.deprecated.map((c) => c.detail)).toEqual(['request body: field reason deprecated']);
    expect(both.breaking).toContainEqual(
      expect.objectContaining({
        location: POST,
        kind: 'bound-narrowed',
        detail: 'request body: field reason: maxLength 200 → 10',
      }),
    );
  });

  it('`deprecated: false` written out is no change', () => {
    expect(mutated(v2, set('S/Verification/properties/phoneNo/deprecated', false))).toEqual(NO_CHANGE);
  });
});
