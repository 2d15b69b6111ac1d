// The whole partner document (version, server, operations, media types, statuses),
// `X-Auth-Key` and its rotation, operations 1 to 4, and what the contract adds to the
// documentation (listed in helpers/partner-additions.ts).
import { describe, expect, it } from 'vitest';
import {
  ABSENT,
  checkFieldFacts,
  type FieldFact,
  type Json,
  loadBundle,
  operationsOf,
  wantInvalid,
  wantValid,
} from './helpers/openapi.js';
import {
  ADDED_DEPRECATIONS,
  ADDED_FIELDS,
  ADDED_OPERATIONS,
  ADDED_PARAMETERS,
  ADDED_VALUES,
  deprecationProblems,
} from './helpers/partner-additions.js';
import * as partner from './helpers/partner-document.js';

const { example, OPERATIONS, resolve, response, sorted } = partner;

// What both documents state alike: one server, whose variable names the service's base
// address; operations named uniquely in camelCase; one credential scheme, on every operation.
describe.each([
  {
    api: 'v2',
    variable: 'base_url',
    server: /the service/,
    schemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
  },
  {
    api: 'partner',
    variable: 'sandbox_base_url',
    server: /sandbox environment/,
    schemes: { authKey: { type: 'apiKey', in: 'header', name: 'X-Auth-Key' } },
  },
])('the $api document', ({ api, variable, server, schemes }) => {
  const document = loadBundle(api);

  it(`is OpenAPI 3.1.0 with the single {${variable}} server`, () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toHaveLength(1);
    expect(document.servers[0].url).toBe(`{${variable}}`);
    expect(document.servers[0].variables[variable].default).toMatch(/^https?:\/\//);
    expect(document.servers[0].description).toMatch(server);
  });

  it('names operations uniquely in camelCase', () => {
    const ids = operationsOf(document).map((o) => o.operation.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has one credential scheme, asked on every operation', () => {
    expect(document.components.securitySchemes).toMatchObject(schemes);
    expect(Object.keys(document.components.securitySchemes)).toEqual(Object.keys(schemes));
    for (const { operation, key, method } of operationsOf(document).filter((o) => o.kind === 'path'))
      expect(operation.security ?? document.security, `${method} ${key}`).toEqual([{ [Object.keys(schemes)[0]]: [] }]);
  });
});

describe('document', () => {
  it('declares every path template parameter (verificationId or userId) as a required string in the path', () => {
    for (const key of OPERATIONS) {
      const path = key.split(' ')[1];
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const params = partner.paramsOf(key);
      const inPath = Object.values(params)
        .filter((p) => p.param.in === 'path')
        .map((p) => p.param.name);
      expect(sorted(inPath), key).toEqual(sorted(inTemplate));
      for (const name of inPath) {
        expect(['verificationId', 'userId']).toContain(name);
        expect(params[name].param.required, key).toBe(true);
        expect(partner.nodeAt(params[name].schemaPtr).type, key).toBe('string');
      }
    }
    expect(partner.paramsOf('get /verification/{verificationId}/user-activities')).toHaveProperty('verificationId');
    expect(partner.paramsOf('get /users/{userId}/shares')).toHaveProperty('userId');
  });

  it('sends and receives JSON bodies only', () => {
    for (const { operation, key, method } of partner.pathOps) {
      if (operation.requestBody) {
        expect(Object.keys(resolve(operation.requestBody).content), `${method} ${key}`).toEqual(['application/json']);
        expect(resolve(operation.requestBody).required, `${method} ${key}`).toBe(true);
      }
    }
    // In the documentation's order.
    expect(OPERATIONS.filter((key) => partner.op(key).operation.requestBody)).toEqual([
      'put /partners',
      'post /auth-keys',
      'post /verifications',
      'post /verifications/revert',
      'post /users/external-users',
    ]);
  });

  it('answers 201 for the three creating operations and 200 for every other one (P1)', () => {
    const created = ['post /auth-keys', 'post /verifications', 'post /users/external-users'];
    for (const key of OPERATIONS) {
      const success = Object.keys(partner.op(key).operation.responses).filter((s) => s.startsWith('2'));
      expect(success, key).toEqual([created.includes(key) ? '201' : '200']);
    }
  });

  it('documents 409 Conflict exactly on create verification and revert verification', () => {
    const with409 = OPERATIONS.filter((key) => partner.op(key).operation.responses['409']);
    expect(sorted(with409)).toEqual(sorted(['post /verifications', 'post /verifications/revert']));
  });
});

describe('authentication', () => {
  const scheme = partner.doc.components.securitySchemes.authKey;

  it('describes rotation: POST /auth-keys makes the previously active key invalid', () => {
    expect(scheme.description).toContain('POST /auth-keys');
    expect(scheme.description).toMatch(/previous/i);
    expect(scheme.description).toMatch(/invalid/i);
    expect(scheme.description).toMatch(/vault/i);
    expect(partner.op('post /auth-keys').operation.description).toMatch(/previous[^.]*(invalid|inactive)/i);
  });
});

describe('partner and auth keys', () => {
  // GET and PUT answer the Partner, whose address takes any string in an answer (P29).
  describe.each(['get /partners', 'put /partners'])('%s', (key) => {
    checkFieldFacts(response(key, '200'), () => example('Partner'), [
      ...['id', 'name'].map((field): FieldFact => ['L11-L13', field, [], [ABSENT, 42]]),
      ['L12 P29', 'webhookUrl', ['partner.example/hooks'], [ABSENT, 42]],
      ...['createdAt', 'updatedAt'].map((field): FieldFact => ['L14-L15', field, [], [ABSENT, '14.03.2026']]),
    ]);
  });

  // PUT /partners takes {webhookUrl}, an absolute address (L113, P29, P54).
  checkFieldFacts(partner.body('put /partners'), () => example('PartnerUpdateRequest'), [
    ['L113 P29 P54', 'webhookUrl', ['https://partner.example/hooks'], [ABSENT, 7, 'partner.example/hooks']],
  ]);

  // An auth key in a listing.
  const keys = response('get /auth-keys', '200');
  checkFieldFacts(
    (key: Json) => keys({ ...example('AuthKeysRotated'), authKeys: [key] }),
    () => example('AuthKeysRotated').authKeys[0],
    [
      ['L20', 'id', [], [ABSENT, 1]],
      ['L21', 'key', [], [ABSENT, 123]],
      ['L22', 'active', [], [ABSENT, 'true']],
      ...['createdAt', 'updatedAt'].map((field): FieldFact => ['L23-L24', field, [], [ABSENT, '14.03.2026']]),
    ],
  );

  it('a rotation answers the new active key and the previous key now inactive, in any order (L115, P31)', () => {
    const rotation = response('post /auth-keys', '201');
    const [fresh, previous] = example('AuthKeyCreated').authKeys;
    for (const name of ['AuthKeyCreated', 'AuthKeyCreatedAgain']) wantValid(rotation, example(name), name);
    const answers: [string, Json[], boolean][] = [
      ['previous key first', [previous, fresh], true],
      ['a further entry', [previous, fresh, { ...previous, id: partner.UUID, key: 'ak_live_older' }], true],
      ['only the new key', [fresh], false],
      ['previous key still active', [fresh, { ...previous, active: true }], false],
      ['new key inactive', [{ ...fresh, active: false }, previous], false],
      ['two active keys, no previous one', [fresh, { ...fresh, id: partner.UUID }], false],
      ['no active key', [previous, { ...previous, id: partner.UUID }], false],
      ['active not a boolean', [previous, { ...fresh, active: 'true' }], false],
    ];
    for (const [label, authKeys, valid] of answers)
      expect(rotation({ authKeys, count: authKeys.length }), label).toBe(valid);
    expect(JSON.stringify(partner.responseSchema('post /auth-keys', '201'))).not.toContain('prefixItems');
    wantValid(response('get /auth-keys', '200'), { authKeys: [previous], count: 1 }, 'a listing is any page of keys');
  });

  it('listing and creating keys both answer {authKeys, count} with an integer count', () => {
    for (const validate of [response('get /auth-keys', '200'), response('post /auth-keys', '201')]) {
      const value = example('AuthKeyCreated');
      wantValid(validate, value);
      wantInvalid(validate, partner.without(value, 'count'));
      wantInvalid(validate, partner.without(value, 'authKeys'));
      wantInvalid(validate, { ...value, count: 1.5 });
      wantInvalid(validate, { ...value, count: '2' });
    }
    expect(example('AuthKeyCreated').authKeys.filter((k: Json) => k.active)).toHaveLength(1);
    expect(example('AuthKeyCreated').authKeys.filter((k: Json) => !k.active).length).toBeGreaterThanOrEqual(1);
    // A rotation's `count` counts the keys of the answer (P31).
    for (const name of ['AuthKeyCreated', 'AuthKeyCreatedAgain']) {
      const { authKeys, count } = example(name);
      expect(count, name).toBe(authKeys.length);
    }
  });

  it('POST /auth-keys takes an empty object (P26)', () => {
    const create = partner.body('post /auth-keys');
    wantValid(create, {});
    wantInvalid(create, { name: 'second key' });
    wantInvalid(create, []);
  });
});

// ---------------------------------------------------------------------------
// What the contract adds to the documentation. Every test above and in the
// other partner-document files lets additions through; these are the one
// place an addition shows, until it is listed in helpers/partner-additions.ts.

const ADDITIONS = 'test/helpers/partner-additions.ts';

/**
 * What an additions list misses (a name beyond the documented and listed ones) or holds wrongly
 * (a name documented or not there, an entry none of the documented ones), saying what to change.
 */
function unlisted(
  list: string,
  what: string,
  entries: Record<string, readonly [have: string[], documented: string[]]>,
  added: Record<string, string[]>,
): string[] {
  const problems = Object.keys(added)
    .filter((entry) => !(entry in entries))
    .map((entry) => `${list} has ${entry}, which is none of the documented ones (${Object.keys(entries).join(', ')})`);
  for (const [entry, [have, documented]] of Object.entries(entries)) {
    const listed = added[entry] ?? [];
    const at = entry === '' ? list : /^\w+$/.test(entry) ? `${list}.${entry}` : `${list}['${entry}']`;
    for (const name of have.filter((name) => !documented.includes(name) && !listed.includes(name)))
      problems.push(
        `${what} ${name}${entry && ` of ${entry}`} is in openapi/partner but not in the documentation; if the API team added it on purpose, add '${name}' to ${at} in ${ADDITIONS}`,
      );
    for (const name of listed.filter((name) => documented.includes(name) || !have.includes(name)))
      problems.push(
        `${at} lists '${name}', which ${documented.includes(name) ? 'is documented' : 'openapi/partner does not have'}: remove it from ${ADDITIONS}`,
      );
  }
  return problems;
}

const componentOf = (ref: string) => ref.replace('#/components/schemas/', '');
const schemaNamed = (name: string): Json => {
  const [component, ...inside] = name.split('.');
  const schema = partner.doc.components.schemas[component];
  if (!schema) throw new Error(`openapi/partner has no schema ${component}`);
  return inside.reduce((s: Json, key) => resolve(s.properties[key]), resolve(schema));
};
/** The properties a schema declares itself: those of a schema it refers to in `allOf` count under that schema's name. */
const ownProperties = (schema: Json): Record<string, Json> =>
  Object.assign({}, ...[schema, ...(schema.allOf ?? []).filter((m: Json) => !m.$ref)].map((s: Json) => s.properties));

describe('additions to the documentation', () => {
  /** The documented objects, by component name (a dotted name: the object in one of its fields). */
  const FIELD_LISTS: Record<string, string[]> = {
    ...partner.FIELDS,
    ...Object.fromEntries(
      Object.keys(partner.EVENTS).map((event) => [
        componentOf(partner.rawAt(`#/webhooks/${event}/post/requestBody/content/application~1json/schema`).$ref),
        partner.ENVELOPE_FIELDS,
      ]),
    ),
  };
  const VALUE_LISTS: Record<string, string[]> = {
    VerificationStatus: partner.STATUSES,
    RequirementType: partner.REQUIREMENT_TYPES,
    EstimatedAge: partner.ESTIMATED_AGES,
    DocumentType: partner.DOCUMENT_TYPES,
  };
  it.each(Object.entries(VALUE_LISTS))('%s has the documented values, in the documented order', (name, documented) => {
    partner.expectDocumentedValues(schemaNamed(name).enum, documented, `values of ${name}`);
  });

  const operations = partner.pathOps.map((o) => `${o.method} ${o.key}`);
  const queryNames = (key: string) =>
    Object.entries(partner.paramsOf(key)).flatMap(([name, { param }]) => (param.in === 'query' ? [name] : []));
  const each = (lists: Record<string, string[]>, have: (name: string) => string[]) =>
    Object.fromEntries(Object.entries(lists).map(([name, documented]) => [name, [have(name), documented]] as const));

  it.each([
    [
      'a field beyond a documented object is listed in ADDED_FIELDS',
      () =>
        unlisted(
          'ADDED_FIELDS',
          'field',
          each(FIELD_LISTS, (name) => Object.keys(ownProperties(schemaNamed(name)))),
          ADDED_FIELDS,
        ),
    ],
    [
      'a value beyond a documented enum is listed in ADDED_VALUES',
      () =>
        unlisted(
          'ADDED_VALUES',
          'value',
          each(VALUE_LISTS, (name) => schemaNamed(name).enum),
          ADDED_VALUES,
        ),
    ],
    [
      'an operation beyond the documented ones is listed in ADDED_OPERATIONS',
      () => unlisted('ADDED_OPERATIONS', 'operation', { '': [operations, OPERATIONS] }, { '': ADDED_OPERATIONS }),
    ],
    [
      'a query parameter beyond the documented ones is listed in ADDED_PARAMETERS',
      () =>
        unlisted(
          'ADDED_PARAMETERS',
          'query parameter',
          Object.fromEntries(operations.map((key) => [key, [queryNames(key), partner.QUERY_PARAMETERS[key] ?? []]])),
          ADDED_PARAMETERS,
        ),
    ],
  ])('%s', (_, problemsOf) => {
    const problems = problemsOf();
    expect(problems, problems.join('\n')).toEqual([]);
  });

  // The live document has no addition, so the rows above pass whatever the checkers say: here they must object.
  it('the checkers flag an unlisted addition and a wrong entry, and pass a listed one', () => {
    const verification = (added: string[]) =>
      unlisted('ADDED_FIELDS', 'field', { Verification: [['id', 'riskScore'], ['id']] }, { Verification: added });
    expect(verification([])).toHaveLength(1);
    expect(verification(['riskScore'])).toEqual([]);
    // `id` is documented, `gone` is not in the document.
    expect(verification(['riskScore', 'id', 'gone'])).toHaveLength(2);
    expect(unlisted('ADDED_FIELDS', 'field', {}, { Nowhere: [] })).toHaveLength(1);
    const marked = { author: { deprecated: true }, phoneNumber: {}, reason: {} };
    // `author` marked but not listed, `phoneNumber` documented but not marked.
    expect(deprecationProblems('Verification', marked, ['phoneNumber'], [])).toHaveLength(2);
    expect(deprecationProblems('Verification', marked, [], ['author'])).toEqual([]);
    expect(deprecationProblems('Verification', marked, [], ['author', 'reason'])).toHaveLength(1);
  });

  it('a field marked deprecated beyond the documented deprecations is listed in ADDED_DEPRECATIONS', () => {
    // A documented deprecation holds in each documented object that lists the field.
    const deprecatedIn = (name: string) => partner.DEPRECATED.filter((field) => partner.FIELDS[name]?.includes(field));
    const problems = Object.entries<Json>(partner.doc.components.schemas).flatMap(([name, schema]) =>
      deprecationProblems(name, ownProperties(resolve(schema)), deprecatedIn(name)),
    );
    for (const name of Object.keys(ADDED_DEPRECATIONS).filter((n) => !(n in partner.doc.components.schemas)))
      problems.push(`ADDED_DEPRECATIONS has ${name}, which is no schema of openapi/partner/components/schemas`);
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
