// The breaking-change gate's structural diff (scripts/lib/contract-diff.mjs):
// the wording of each kind of change on mutated copies of a bundle's snapshot
// (test/fixtures/bundles/, so the contract's own changes never collide) (or,
// for request bodies and webhooks, a small synthetic document), and one
// change named at every place it reaches. The verdicts on the whole corpus of
// mutations are in test/diff-corpus.test.ts; the commands `npm run diff` and
// `npm run changelog` in test/diff-cli.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APIS } from '../scripts/lib/apis.mjs';
import { diffDocuments } from '../scripts/lib/contract-diff.mjs';
import { ROOT } from '../scripts/lib/paths.mjs';
import { snapshotBundle } from './fixtures/bundles.js';
import type { Json } from '../src/contract/json.js';

type Change = { location: string; kind: string; detail: string; about: string };

const liveBundle = (api: string): Json =>
  JSON.parse(readFileSync(path.join(ROOT, 'generated', 'openapi', `${api}.json`), 'utf8'));
const v2 = snapshotBundle('v2');

/** Diff of the v2 bundle against a mutated copy of it. */
function mutated(mutate: (doc: Json) => void, base: Json = v2) {
  const head = structuredClone(base);
  mutate(head);
  return diffDocuments(base, head);
}

const find = (list: Change[], location: string, kind: string, detail: RegExp | string) =>
  list.find(
    (c) =>
      c.location === location &&
      c.kind === kind &&
      (typeof detail === 'string' ? c.detail.includes(detail) : detail.test(c.detail)),
  );

function expectBreaking(result: { breaking: Change[] }, location: string, kind: string, detail: RegExp | string) {
  expect(find(result.breaking, location, kind, detail), JSON.stringify(result.breaking, null, 2)).toBeTruthy();
}
function expectNonBreaking(
  result: { breaking: Change[]; review: Change[]; nonBreaking: Change[] },
  location: string,
  kind: string,
  detail: RegExp | string,
) {
  expect(result.breaking, 'no breaking change').toEqual([]);
  expect(result.review, 'nothing to review').toEqual([]);
  expect(find(result.nonBreaking, location, kind, detail), JSON.stringify(result.nonBreaking, null, 2)).toBeTruthy();
}

const GET = 'GET /v2/verifications/{id}';
const LIST = 'GET /v2/verifications/';
const S = (doc: Json) => doc.components.schemas;
const P = (doc: Json) => doc.components.parameters;
const dropRequired = (schema: Json, name: string) =>
  (schema.required = schema.required.filter((n: string) => n !== name));

// A small document with a request body, a response and a webhook: v2 has no
// request bodies and no webhooks.
const synthetic = (): Json => ({
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
});
const body = (doc: Json) => doc.components.schemas.OrderCreate;
const event = (doc: Json) => doc.components.schemas.OrderEvent.properties.data;

describe('diffDocuments on the real bundles', () => {
  it.each(APIS.map((a) => a.name))('finds no change between the %s bundle and itself', (api) => {
    const doc = liveBundle(api);
    expect(diffDocuments(doc, structuredClone(doc))).toEqual({
      breaking: [],
      review: [],
      deprecated: [],
      nonBreaking: [],
    });
  });
});

describe('breaking changes fail the gate', () => {
  it('removed operation', () => {
    const result = mutated((d) => delete d.paths['/v2/verifications/']);
    expectBreaking(result, LIST, 'operation-removed', 'List verifications');
    expect(result.breaking).toHaveLength(1);
  });

  it('removed operation of a path that keeps others (synthetic)', () => {
    const base = synthetic();
    base.paths['/orders'].get = { responses: { '200': { description: 'ok' } } };
    expectBreaking(
      mutated((d) => delete d.paths['/orders'].post, base),
      'POST /orders',
      'operation-removed',
      'operation removed',
    );
  });

  it('removed parameter', () => {
    const result = mutated((d) => {
      d.paths['/v2/verifications/'].get.parameters = d.paths['/v2/verifications/'].get.parameters.filter(
        (p: Json) => p.$ref !== '#/components/parameters/ExternalIdFilter',
      );
    });
    expectBreaking(result, LIST, 'parameter-removed', 'query parameter externalId removed');
  });

  it('removed response field, at the top and nested, on every endpoint that returns it', () => {
    const top = mutated((d) => {
      delete S(d).Verification.properties.phoneNo;
      dropRequired(S(d).Verification, 'phoneNo');
    });
    expectBreaking(top, GET, 'field-removed', 'response 200: field phoneNo removed');
    expectBreaking(top, LIST, 'field-removed', 'response 200: field items[].phoneNo removed');

    const nested = mutated((d) => {
      delete S(d).IdentityDocument.properties.firstName;
      dropRequired(S(d).IdentityDocument, 'firstName');
    });
    expectBreaking(nested, GET, 'field-removed', 'field identityDocument.firstName removed');
    expectBreaking(nested, LIST, 'field-removed', 'field items[].identityDocument.firstName removed');
  });

  it('removed response field inside allOf (error bodies)', () => {
    const result = mutated((d) => delete S(d).Error.properties.details);
    expectBreaking(result, GET, 'field-removed', 'response 400: field details removed');
    expectBreaking(result, LIST, 'field-removed', 'response 401: field details removed');
  });

  it('response field no longer required', () => {
    expectBreaking(
      mutated((d) => dropRequired(S(d).Verification, 'url')),
      GET,
      'field-became-optional',
      'field url became optional',
    );
  });

  it('removed response status', () => {
    expectBreaking(
      mutated((d) => delete d.paths['/v2/verifications/{id}'].get.responses['404']),
      GET,
      'response-removed',
      'response 404 removed',
    );
  });

  it('new required query parameter, and an optional one that became required', () => {
    const added = mutated((d) =>
      d.paths['/v2/verifications/'].get.parameters.push({
        name: 'tenant',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      }),
    );
    expectBreaking(added, LIST, 'parameter-added-required', 'query parameter tenant added (required)');
    expectBreaking(
      mutated((d) => (P(d).PageSize.required = true)),
      LIST,
      'parameter-became-required',
      'pageSize became required',
    );
  });

  it('new required request field (synthetic request body)', () => {
    const result = mutated((d) => {
      body(d).properties.country = { type: 'string' };
      body(d).required.push('country');
    }, synthetic());
    expectBreaking(result, 'POST /orders', 'field-added-required', 'request body: field country added (required)');
    expectBreaking(
      mutated((d) => body(d).required.push('kind'), synthetic()),
      'POST /orders',
      'field-became-required',
      'field kind became required',
    );
  });

  it('narrowed enum in a request (the statuses filter)', () => {
    const result = mutated(
      (d) => (S(d).VerificationStatus.enum = S(d).VerificationStatus.enum.filter((s: string) => s !== 'REVIEW')),
    );
    expectBreaking(
      result,
      LIST,
      'enum-values-removed',
      /query parameter statuses: field \[\]: enum values removed: "REVIEW"/,
    );
    // The same removal in a response only narrows what consumers receive.
    expect(find(result.nonBreaking, GET, 'enum-values-removed', 'response 200: field status')).toBeTruthy();
  });

  it('added enum value in a response (consumers handling every status no longer do)', () => {
    const result = mutated((d) => S(d).VerificationStatus.enum.push('CANCELLED'));
    expectBreaking(result, GET, 'enum-values-added', /response 200: field status: enum values added: "CANCELLED"/);
    // In the request filter the new value only widens what is accepted.
    expect(find(result.nonBreaking, LIST, 'enum-values-added', 'query parameter statuses')).toBeTruthy();
  });

  it('narrowed bounds in requests: maximum lowered, minimum raised, maxLength and maxItems lowered', () => {
    expectBreaking(
      mutated((d) => (P(d).PageSize.schema.maximum = 40)),
      LIST,
      'bound-narrowed',
      'pageSize: maximum 50 → 40',
    );
    expectBreaking(
      mutated((d) => (P(d).Page.schema.minimum = 1)),
      LIST,
      'bound-narrowed',
      'page: minimum 0 → 1',
    );
    expectBreaking(
      mutated((d) => (P(d).IdFilter.schema.maxLength = 36)),
      LIST,
      'bound-narrowed',
      'id: maxLength none → 36',
    );
    expectBreaking(
      mutated((d) => (body(d).properties.sku.maxLength = 10), synthetic()),
      'POST /orders',
      'bound-narrowed',
      'field sku: maxLength 20 → 10',
    );
    expectBreaking(
      mutated((d) => (body(d).properties.lines.maxItems = 2), synthetic()),
      'POST /orders',
      'bound-narrowed',
      'field lines: maxItems 5 → 2',
    );
    expectBreaking(
      mutated((d) => (body(d).properties.lines.items.properties.qty.maximum = 5), synthetic()),
      'POST /orders',
      'bound-narrowed',
      'field lines[].qty: maximum 10 → 5',
    );
  });

  it('changed type, in a request and in a response', () => {
    expectBreaking(
      mutated((d) => (P(d).IdFilter.schema.type = 'integer')),
      LIST,
      'type-changed',
      'query parameter id: type string → integer',
    );
    expectBreaking(
      mutated((d) => (P(d).Page.schema.type = 'integer')),
      LIST,
      'type-narrowed',
      'page: type number → integer',
    );
    expectBreaking(
      mutated((d) => (S(d).VerificationList.properties.count = { type: 'string' })),
      LIST,
      'type-changed',
      'response 200: field count: type integer → string',
    );
    expectBreaking(
      mutated((d) => (S(d).Verification.properties.phoneNo.type = ['string', 'null'])),
      GET,
      'type-widened',
      'field phoneNo: type string → string | null',
    );
  });

  it('removed field in a webhook payload (synthetic webhooks section)', () => {
    const result = mutated((d) => {
      delete event(d).properties.total;
      event(d).required = ['orderId'];
    }, synthetic());
    expectBreaking(result, 'webhook order.created', 'field-removed', 'payload: field data.total removed');
  });

  it('webhook payloads count as output: an added enum value breaks, a new required field does not', () => {
    expectBreaking(
      mutated((d) => event(d).properties.currency.enum.push('GBP'), synthetic()),
      'webhook order.created',
      'enum-values-added',
      'data.currency',
    );
    const result = mutated((d) => {
      event(d).properties.note = { type: 'string' };
      event(d).required.push('note');
    }, synthetic());
    expectNonBreaking(result, 'webhook order.created', 'field-added', 'payload: field data.note added (required)');
  });

  it('removed webhook', () => {
    expectBreaking(
      mutated((d) => delete d.webhooks['order.created'], synthetic()),
      'webhook order.created',
      'webhook-removed',
      'webhook removed',
    );
  });
});

describe('non-breaking changes pass the gate and are listed', () => {
  it('added optional response field', () => {
    expectNonBreaking(
      mutated((d) => (S(d).Verification.properties.locale = { type: 'string' })),
      GET,
      'field-added',
      'field locale added (optional)',
    );
  });

  it('added operation', () => {
    const result = mutated(
      (d) => (d.paths['/v2/health'] = { get: { summary: 'Health', responses: { '200': { description: 'ok' } } } }),
    );
    expectNonBreaking(result, 'GET /v2/health', 'operation-added', 'operation added (Health)');
  });

  it('added enum value in a request, widened request bound, optional request field', () => {
    expectNonBreaking(
      mutated((d) => body(d).properties.kind.enum.push('d'), synthetic()),
      'POST /orders',
      'enum-values-added',
      'field kind',
    );
    expectNonBreaking(
      mutated((d) => (P(d).PageSize.schema.maximum = 100)),
      LIST,
      'bound-widened',
      'maximum 50 → 100',
    );
    expectNonBreaking(
      mutated((d) => (body(d).properties.note = { type: 'string' }), synthetic()),
      'POST /orders',
      'field-added',
      'note added (optional)',
    );
  });

  it('a renamed path parameter is the same endpoint', () => {
    const result = mutated((d) => {
      d.paths['/v2/verifications/{verificationId}'] = d.paths['/v2/verifications/{id}'];
      delete d.paths['/v2/verifications/{id}'];
      P(d).VerificationId.name = 'verificationId';
    });
    expect(result).toEqual({ breaking: [], review: [], deprecated: [], nonBreaking: [] });
  });
});

describe('deprecations pass the gate as a verdict of their own, to tell partners', () => {
  const partner = snapshotBundle('partner');
  const only = (result: ReturnType<typeof mutated>) => {
    expect(result.breaking, 'no breaking change').toEqual([]);
    expect(result.review, 'nothing to review').toEqual([]);
    expect(result.nonBreaking, 'no plain change').toEqual([]);
    return result.deprecated;
  };

  it('a field of a shared schema: named once by its schema, at every operation and webhook that carries it', () => {
    const deprecated = only(mutated((d) => (S(d).Requirement.properties.type.deprecated = true), partner));
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
    const deprecated = only(mutated((d) => (S(d).Verification.properties.externalUserId.deprecated = true), partner));
    expect(new Set(deprecated.map((c) => c.about))).toEqual(
      new Set(['schema Verification: field externalUserId deprecated']),
    );
  });

  it('a whole named schema, an operation, a webhook, a parameter and a response header', () => {
    expect(only(mutated((d) => (S(d).Verification.deprecated = true))).map((c) => c.about)).toEqual([
      'schema Verification deprecated',
      'schema Verification deprecated',
    ]);
    expect(only(mutated((d) => (d.paths['/v2/verifications/'].get.deprecated = true)))).toEqual([
      {
        location: LIST,
        kind: 'deprecated',
        detail: 'operation deprecated (List verifications)',
        about: 'operation deprecated (List verifications)',
      },
    ]);
    expect(only(mutated((d) => (d.webhooks['order.created'].post.deprecated = true), synthetic()))[0].detail).toBe(
      'webhook deprecated (orderCreated)',
    );
    expect(only(mutated((d) => (P(d).PageSize.deprecated = true))).map((c) => c.detail)).toEqual([
      'query parameter pageSize deprecated',
    ]);
    const withHeader = synthetic();
    withHeader.paths['/orders'].post.responses['201'].headers = { 'X-Trace': { schema: { type: 'string' } } };
    const header = only(
      mutated((d) => (d.paths['/orders'].post.responses['201'].headers['X-Trace'].deprecated = true), withHeader),
    );
    expect(header.map((c) => c.detail)).toEqual(['response 201: header X-Trace deprecated']);
  });

  it('withdrawing a deprecation is a plain non-breaking change; deprecating and breaking at once reports both', () => {
    const withdrawn = mutated((d) => delete S(d).Verification.properties.phoneNumber.deprecated, partner);
    expect(withdrawn.deprecated).toEqual([]);
    expectNonBreaking(
      withdrawn,
      'GET /verifications/{verificationId}',
      'undeprecated',
      'response 200: field phoneNumber no longer deprecated',
    );
    const both = mutated(
      (d) => Object.assign(body(d).properties.sku, { deprecated: true, maxLength: 10 }),
      synthetic(),
    );
    expect(both.deprecated.map((c) => c.detail)).toEqual(['request body: field sku deprecated']);
    expectBreaking(both, 'POST /orders', 'bound-narrowed', 'maxLength 20 → 10');
  });

  it('`deprecated: false` written out is no change', () => {
    expect(mutated((d) => (S(d).Verification.properties.phoneNo.deprecated = false))).toEqual({
      breaking: [],
      review: [],
      deprecated: [],
      nonBreaking: [],
    });
  });
});

describe('one change, every place it reaches', () => {
  it('a removed field of a shared schema is named once (about) and reported at each endpoint', () => {
    const result = mutated((d) => {
      delete S(d).Verification.properties.phoneNo;
      dropRequired(S(d).Verification, 'phoneNo');
    });
    const removed = result.breaking.filter((c) => c.kind === 'field-removed');
    expect(new Set(removed.map((c) => c.about))).toEqual(new Set(['schema Verification: field phoneNo removed']));
    expect(removed.map((c) => c.location).sort()).toEqual([LIST, GET].sort());
  });

  it('a removed request-body field is breaking (D1), which redocly diff rated a patch', () => {
    const base = synthetic();
    const head = structuredClone(base);
    delete body(head).properties.kind;
    expectBreaking(diffDocuments(base, head), 'POST /orders', 'field-removed', 'request body: field kind removed');
  });
});
