// The breaking-change gate's structural diff (scripts/lib/contract-diff.mjs):
// the wording of each kind of change on mutated copies of a bundle's snapshot
// (test/fixtures/bundles/, so the contract's own changes never collide) (or,
// for request bodies and webhooks, a small synthetic document), and one
// change named at every place it reaches. The verdicts on the whole corpus of
// mutations are in test/diff-corpus.test.ts; the commands `npm run diff` and
// `npm run changelog` in test/diff-cli.test.ts. Edits are written as in
// test/fixtures/diff-mutations.ts.
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
const POST = 'POST /orders';
const HOOK = 'webhook order.created';
const DATA = 'S/OrderEvent/properties/data';
const ORDER = 'S/OrderCreate/properties';
const PHONE = 'S/Verification/properties/phoneNo';
const COUNT = 'S/VerificationList/properties/count';
const EXTERNAL_ID = { $ref: '#/components/parameters/ExternalIdFilter' };
const TENANT = { name: 'tenant', in: 'query', required: true, schema: { type: 'string' } };
const HEALTH = { get: { summary: 'Health', responses: { '200': { description: 'ok' } } } };
const NO_PHONE = all(del(PHONE), drop('S/Verification/required', 'phoneNo'));
const NO_FIRST_NAME = all(
  del('S/IdentityDocument/properties/firstName'),
  drop('S/IdentityDocument/required', 'firstName'),
);
const NO_REVIEW = drop('S/VerificationStatus/enum', 'REVIEW');
const CANCELLED = push('S/VerificationStatus/enum', 'CANCELLED');
const COUNTRY = all(set(`${ORDER}/country`, { type: 'string' }), push('S/OrderCreate/required', 'country'));
const NO_TOTAL = all(del(`${DATA}/properties/total`), set(`${DATA}/required`, ['orderId']));
const NOTE = all(set(`${DATA}/properties/note`, { type: 'string' }), push(`${DATA}/required`, 'note'));

// A small document with a request body, a response and a webhook: v2 has no
// request bodies and no webhooks.
const synthetic: Json = {
  openapi: '3.1.0',
  info: { title: 'synthetic', version: '1.0.0' },
  paths: {
    '/orders': {
      post: {
        operationId: 'createOrder',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderCreate' } } },
        },
        responses: {
          '201': {
            description: 'created',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } },
          },
        },
      },
    },
  },
  webhooks: {
    'order.created': {
      post: {
        operationId: 'orderCreated',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderEvent' } } },
        },
        responses: { '200': { description: 'received' } },
      },
    },
  },
  components: {
    schemas: {
      OrderCreate: {
        type: 'object',
        required: ['sku'],
        properties: {
          sku: { type: 'string', maxLength: 20 },
          kind: { type: 'string', enum: ['a', 'b', 'c'] },
          lines: {
            type: 'array',
            maxItems: 5,
            items: { type: 'object', properties: { qty: { type: 'integer', minimum: 1, maximum: 10 } } },
          },
        },
      },
      Order: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, sku: { type: 'string' } } },
      OrderEvent: {
        type: 'object',
        required: ['eventId', 'data'],
        properties: {
          eventId: { type: 'string' },
          data: {
            type: 'object',
            required: ['orderId', 'total'],
            properties: {
              orderId: { type: 'string' },
              total: { type: 'integer' },
              currency: { type: 'string', enum: ['EUR', 'USD'] },
            },
          },
        },
      },
    },
  },
};
const withGet = structuredClone(synthetic);
set('[/orders]/get', { responses: { '200': { description: 'ok' } } })(withGet);

// Each row: where a change is reported, its kind and a part of its detail, and the edit that makes it.
type Row = [location: string, kind: string, detail: string | RegExp, edit: Edit];
const BREAKING: [base: string, doc: Json, rows: Row[]][] = [
  [
    'v2',
    v2,
    [
      [LIST, 'parameter-removed', 'query parameter externalId removed', drop(`[${LIST}]/parameters`, EXTERNAL_ID)],
      [GET, 'field-removed', 'response 200: field phoneNo removed', NO_PHONE],
      [LIST, 'field-removed', 'response 200: field items[].phoneNo removed', NO_PHONE],
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
    'a synthetic document with a request body and a webhook',
    synthetic,
    [
      [POST, 'field-added-required', 'request body: field country added (required)', COUNTRY],
      [POST, 'field-became-required', 'field kind became required', push('S/OrderCreate/required', 'kind')],
      [POST, 'bound-narrowed', 'field sku: maxLength 20 → 10', set(`${ORDER}/sku/maxLength`, 10)],
      [POST, 'bound-narrowed', 'field lines: maxItems 5 → 2', set(`${ORDER}/lines/maxItems`, 2)],
      [
        POST,
        'bound-narrowed',
        'field lines[].qty: maximum 10 → 5',
        set(`${ORDER}/lines/items/properties/qty/maximum`, 5),
      ],
      // D1: a removed request-body field is breaking, which redocly diff rated a patch.
      [POST, 'field-removed', 'request body: field kind removed', del(`${ORDER}/kind`)],
      // Webhook payloads count as output.
      [HOOK, 'field-removed', 'payload: field data.total removed', NO_TOTAL],
      [HOOK, 'enum-values-added', 'data.currency', push(`${DATA}/properties/currency/enum`, 'GBP')],
      [HOOK, 'webhook-removed', 'webhook removed', del('webhooks/order.created')],
    ],
  ],
  [
    'a synthetic document with two operations on a path',
    withGet,
    [[POST, 'operation-removed', 'operation removed', del('[POST /orders]')]],
  ],
];
// Changes that pass: nothing breaking or to review.
const NON_BREAKING: [base: string, doc: Json, rows: Row[]][] = [
  [
    'v2',
    v2,
    [
      [
        GET,
        'field-added',
        'field locale added (optional)',
        set('S/Verification/properties/locale', { type: 'string' }),
      ],
      ['GET /v2/health', 'operation-added', 'operation added (Health)', set('[/v2/health]', HEALTH)],
      [LIST, 'bound-widened', 'maximum 50 → 100', set('P/PageSize/schema/maximum', 100)],
    ],
  ],
  [
    'a synthetic document with a request body and a webhook',
    synthetic,
    [
      [POST, 'enum-values-added', 'field kind', push(`${ORDER}/kind/enum`, 'd')],
      [POST, 'field-added', 'note added (optional)', set(`${ORDER}/note`, { type: 'string' })],
      [HOOK, 'field-added', 'payload: field data.note added (required)', NOTE],
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

  it('a removed field of a shared schema is named once (about) and reported at each endpoint', () => {
    const result = mutated(v2, del('S/Verification/properties/phoneNo'), drop('S/Verification/required', 'phoneNo'));
    const removed = result.breaking.filter((c) => c.kind === 'field-removed');
    expect(new Set(removed.map((c) => c.about))).toEqual(new Set(['schema Verification: field phoneNo removed']));
    expect(removed.map((c) => c.location).sort()).toEqual([LIST, GET].sort());
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
    expect(detailsOf(synthetic, set('[webhook order.created]/deprecated', true))).toEqual([
      'webhook deprecated (orderCreated)',
    ]);
    expect(detailsOf(v2, set('P/PageSize/deprecated', true))).toEqual(['query parameter pageSize deprecated']);
    const withHeader = structuredClone(synthetic);
    set('[POST /orders]/responses/201/headers', { 'X-Trace': { schema: { type: 'string' } } })(withHeader);
    expect(detailsOf(withHeader, set('[POST /orders]/responses/201/headers/X-Trace/deprecated', true))).toEqual([
      'response 201: header X-Trace deprecated',
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
    const both = mutated(synthetic, merge(`${ORDER}/sku`, { deprecated: true, maxLength: 10 }));
    expect(both.deprecated.map((c) => c.detail)).toEqual(['request body: field sku deprecated']);
    expect(both.breaking).toContainEqual(
      expect.objectContaining({
        location: POST,
        kind: 'bound-narrowed',
        detail: 'request body: field sku: maxLength 20 → 10',
      }),
    );
  });

  it('`deprecated: false` written out is no change', () => {
    expect(mutated(v2, set('S/Verification/properties/phoneNo/deprecated', false))).toEqual(NO_CHANGE);
  });
});
