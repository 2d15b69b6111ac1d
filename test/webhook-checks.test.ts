// What keeps an edge receiver light and portable, each part held to what it stands for: the runtime rule, the
// formats to ajv-formats, the schema interpreter to Ajv keyword by keyword (test/fuzz-webhooks.test.ts holds it to Ajv
// on generated webhook payloads), and the generated schemas to the bundled partner document.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { build } from 'esbuild';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHECKED_FORMATS, CHECKED_KEYWORDS, webhookSchemas as reduceWebhookSchemas } from '../scripts/validators.mjs';
import { ROOT } from '../scripts/lib/paths.mjs';
import { webhookSchemas } from '../generated/validators/partner-webhooks.js';
import { FORMATS } from '../src/webhooks/formats.js';
import { schemaIssues } from '../src/webhooks/schema-check.js';
import { loadBundle, type Json } from './helpers/openapi.js';

const SEED = 20261123;
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const VECTORS: { body: string; key: string; signature: string }[] = JSON.parse(
  readFileSync(path.join(ROOT, 'test', 'fixtures', 'webhook-vectors.json'), 'utf8'),
);

// In a realm with neither node:crypto nor Web Crypto (a page that is not a secure context); where Web Crypto is, the
// asynchronous functions verify with it: test/integration/runtime-installed.test.ts runs that in workerd and Chromium.
describe('without node:crypto and Web Crypto', () => {
  it('the synchronous functions throw, and the asynchronous ones reject, a TypeError saying what to do', async () => {
    const { outputFiles } = await build({
      entryPoints: [path.join(ROOT, 'src', 'webhooks', 'index.ts')],
      bundle: true,
      format: 'iife',
      globalName: 'wh',
      platform: 'neutral',
      write: false,
      logLevel: 'silent',
    });
    const context = vm.createContext({ TextEncoder, TextDecoder });
    vm.runInContext(outputFiles[0].text, context);
    const wh = context.wh as typeof import('../src/webhooks/index.js');
    const v = VECTORS[1];
    expect(() => wh.verifyWebhookSignature(v.body, v.signature, v.key)).toThrow(
      /use await verifyWebhookSignatureAsync/,
    );
    expect(() => wh.parseWebhookEvent(undefined as never, undefined, v.key)).toThrow(/verifyWebhookRequest/);
    const request = () =>
      new Request('http://receiver.test/', { method: 'POST', body: v.body, headers: { 'X-SIGNATURE': v.signature } });
    await expect(wh.verifyWebhookSignatureAsync(v.body, v.signature, v.key)).rejects.toThrow(
      /verifyWebhookSignatureAsync needs Web Crypto.*https: and localhost/,
    );
    await expect(wh.verifyWebhookRequestBody(request(), v.key)).rejects.toThrow(
      /verifyWebhookRequestBody needs Web Crypto/,
    );
    await expect(wh.verifyWebhookRequest(request(), v.key)).rejects.toThrow(/verifyWebhookRequest needs Web Crypto/);
  });
});

describe('string formats', () => {
  it('are the formats the build accepts', () => {
    expect(Object.keys(FORMATS).sort()).toEqual([...CHECKED_FORMATS].sort());
  });

  // Near misses of valid values: each character may be replaced, dropped or doubled.
  const seeds: Record<string, string[]> = {
    date: [
      '2026-02-28',
      '2024-02-29',
      '2023-02-29',
      '2026-04-31',
      '1900-02-29',
      '2000-02-29',
      '2026-13-01',
      '2026-00-10',
    ],
    'date-time': [
      '2026-03-07T09:15:00Z',
      '2026-03-07t09:15:00.123+01:00',
      '2026-12-31T23:59:60Z',
      '2026-12-31T22:59:60-01:00',
      '2026-03-07 09:15:00+0100',
      '2026-03-07T24:00:00Z',
    ],
    uuid: [
      '4c7e2a19-8b3d-4f60-a5e1-9d2b7c0f3e84',
      'urn:uuid:4C7E2A19-8B3D-4F60-A5E1-9D2B7C0F3E84',
      '00000000-0000-0000-0000-000000000000',
    ],
  };
  const nearMiss = (text: string) =>
    fc
      .tuple(
        fc.nat(text.length),
        fc.constantFrom('', '0', '9', '-', ':', 'T', 'z', '+', '.', 'x', ' ', '60', 'a'),
        fc.boolean(),
      )
      .map(([at, ch, drop]) => text.slice(0, at) + ch + text.slice(at + (drop ? 1 : 0)));

  it.each(CHECKED_FORMATS)('%s judges as ajv-formats (full mode) judges', (format) => {
    const reference = fullFormats[format as keyof typeof fullFormats] as { validate: (s: string) => boolean } | RegExp;
    const expected = (s: string) => (reference instanceof RegExp ? reference.test(s) : reference.validate(s));
    for (const s of seeds[format]) expect(FORMATS[format](s), s).toBe(expected(s));
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...seeds[format]).chain(nearMiss), fc.string({ maxLength: 40 })), (s) => {
        expect(FORMATS[format](s), s).toBe(expected(s));
      }),
      { numRuns: 3000, seed: SEED },
    );
  });
});

describe('the schema interpreter', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);

  // Schemas that use each checked keyword, against Ajv on the same values.
  const CASES: { keywords: string[]; schema: Json; defs?: Json }[] = [
    {
      keywords: ['$ref'],
      schema: { $ref: 'S', required: ['a'] },
      defs: { S: { type: 'object', properties: { a: { type: 'string' } } } },
    },
    { keywords: ['type'], schema: { type: 'integer' } },
    { keywords: ['type'], schema: { type: ['string', 'null'] } },
    { keywords: ['type'], schema: { type: ['number', 'boolean'] } },
    { keywords: ['type'], schema: { type: ['object', 'array'] } },
    { keywords: ['const'], schema: { const: 'a' } },
    { keywords: ['const'], schema: { const: true } },
    { keywords: ['const'], schema: { const: null } },
    { keywords: ['const'], schema: { const: { a: 1, b: 2 } } },
    { keywords: ['const'], schema: { const: [1, 'a', 3] } },
    { keywords: ['const'], schema: { const: { a: { c: null, d: [1, { e: 2, f: 1 }] }, b: 2 } } },
    { keywords: ['enum'], schema: { enum: ['a', 1, null, false] } },
    { keywords: ['enum'], schema: { enum: [{ b: 2, a: 1 }, [1], 'a'] } },
    { keywords: ['format'], schema: { format: 'date-time' } },
    { keywords: ['format'], schema: { type: 'string', format: 'uuid' } },
    { keywords: ['format'], schema: { format: 'date' } },
    { keywords: ['pattern'], schema: { pattern: '^\\+[1-9][0-9]{1,14}$' } },
    { keywords: ['required'], schema: { required: ['a', 'b'] } },
    {
      keywords: ['properties'],
      schema: { properties: { a: { type: 'string' }, b: { type: 'integer' }, '~/x': { const: 1 } } },
    },
    { keywords: ['additionalProperties'], schema: { properties: { a: {} }, additionalProperties: false } },
    { keywords: ['additionalProperties'], schema: { properties: { a: {} }, additionalProperties: { type: 'string' } } },
    { keywords: ['additionalProperties'], schema: { type: 'object', additionalProperties: true } },
    { keywords: ['items'], schema: { items: { type: 'number' } } },
    { keywords: ['items'], schema: { items: false } },
    { keywords: ['items'], schema: { items: true } },
    { keywords: ['allOf'], schema: { allOf: [{ required: ['a'] }, { properties: { a: { type: 'string' } } }] } },
    { keywords: ['allOf'], schema: { allOf: [true, { allOf: [false] }] } },
    { keywords: ['anyOf'], schema: { anyOf: [{ type: 'string' }, { type: 'object', required: ['a'] }] } },
    {
      keywords: ['oneOf'],
      schema: { oneOf: [{ type: 'object', required: ['a'] }, { type: 'object', required: ['b'] }, { type: 'string' }] },
    },
    { keywords: ['not'], schema: { not: { type: 'string' } } },
    { keywords: ['not'], schema: { properties: { a: { not: {} } } } },
    { keywords: ['not'], schema: { not: true } },
    { keywords: ['not'], schema: { not: false } },
    { keywords: ['if', 'then', 'else'], schema: { if: true, then: { type: 'string' }, else: false } },
    { keywords: ['if', 'then', 'else'], schema: { if: false, then: false, else: { type: 'object' } } },
    { keywords: ['if', 'then'], schema: { if: { type: 'string' }, then: false } },
    {
      keywords: ['if', 'then', 'else'],
      schema: {
        if: { required: ['a'], properties: { a: { const: 1 } } },
        then: { required: ['b'] },
        else: { properties: { b: { type: 'null' } } },
      },
    },
    { keywords: ['if', 'then'], schema: { if: { type: 'string' }, then: { enum: ['😀😀', '2026-02-30'] } } },
  ];

  it('has a case for every keyword the build lets through', () => {
    expect([...new Set(CASES.flatMap((c) => c.keywords))].sort()).toEqual([...CHECKED_KEYWORDS].sort());
  });

  const special = fc.constantFrom<unknown>(
    'a',
    '😀😀',
    '😀😀😀😀',
    '2026-03-07T09:15:00Z',
    '2026-02-30',
    '4c7e2a19-8b3d-4f60-a5e1-9d2b7c0f3e84',
    '+4915112345678',
    '+0123',
    1,
    2.5,
    3,
    -2,
    0,
    true,
    false,
    null,
    [],
    [1],
    [1, 'a', 3],
    [3, 'a', 1],
    {},
    { a: 1, b: 2 },
    { b: 2, a: 1 },
    { a: 1, b: 2, c: 3 },
    { a: 1 },
    { a: 'x' },
    { b: 2, a: { d: [1, { f: 1, e: 2 }], c: null } },
    { b: 2, a: { d: [{ f: 1, e: 2 }, 1], c: null } },
  );
  const values = fc.oneof(
    special,
    fc.jsonValue({ maxDepth: 2 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', '~/x'), fc.oneof(special, fc.jsonValue({ maxDepth: 1 })), {
      maxKeys: 4,
    }),
  );

  it.each(CASES)('judges as Ajv judges (%#: $keywords)', ({ schema, defs = {} }) => {
    const refs = JSON.parse(
      JSON.stringify({ ...schema, $defs: defs }).replace(/"\$ref":"(\w+)"/g, '"$ref":"#/$defs/$1"'),
    );
    const validate = ajv.compile(refs);
    fc.assert(
      fc.property(values, (value) => {
        const issues = schemaIssues(value, schema, defs);
        expect(issues.length === 0, `${JSON.stringify(value)}: ${JSON.stringify(issues)}`).toBe(validate(value));
        // An issue says where, with a JSON pointer Ajv would give too.
        if (!validate(value))
          expect(issues.map((i) => i.path)).toEqual(expect.arrayContaining([validate.errors![0].instancePath]));
      }),
      { numRuns: 400, seed: SEED },
    );
  });
});

describe('the generated webhook schemas', () => {
  const doc = loadBundle('partner');
  /** The bundled document with ShareholderEventData changed by `place`. */
  const withRule = (place: (schema: Json) => void) => {
    const copy = structuredClone(doc);
    place(copy.components.schemas.ShareholderEventData);
    return copy;
  };
  const withIds = (rule: Json) => withRule((s) => Object.assign(s.properties.externalUserIds, rule));

  it("are the bundled document's, event by event, without annotations and with their references by name", () => {
    const reduced = reduceWebhookSchemas(doc);
    expect(reduced).toEqual(webhookSchemas);
    expect(Object.keys(reduced.events).sort()).toEqual(Object.keys(doc.webhooks).sort());
    const text = JSON.stringify(reduced);
    for (const annotation of ['description', 'examples', 'discriminator', 'deprecated', '$comment'])
      expect(text).not.toContain(`"${annotation}"`);
    expect(text).not.toContain('#/components/schemas/');
    // The rules that tell events apart and the documented ones stay.
    expect(reduced.defs.UserCreatedEvent.properties!.dataType).toEqual({ type: 'string', const: 'user' });
    expect(JSON.stringify(reduced.defs.VerificationEventData.if)).toContain('"completed"');
  });

  it('refuse a keyword or format the checks do not know, naming it and where', () => {
    expect(() => reduceWebhookSchemas(withIds({ uniqueItems: true }))).toThrow(
      /ShareholderEventData\/properties\/externalUserIds uses "uniqueItems".*teach src\/webhooks\/schema-check\.ts/,
    );
    expect(() => reduceWebhookSchemas(withIds({ items: { type: 'string', format: 'email' } }))).toThrow(
      /uses format "email"/,
    );
    expect(() => reduceWebhookSchemas(withIds({ 'x-note': 'kept out', description: 'kept out' }))).not.toThrow();
  });

  it('pass boolean subschemas through only where the interpreter takes them, and refuse one anywhere else', () => {
    for (const keyword of ['items', 'not', 'if', 'then', 'else', 'additionalProperties']) {
      const reduced = reduceWebhookSchemas(withIds({ [keyword]: false }));
      expect(reduced.defs.ShareholderEventData.properties!.externalUserIds, keyword).toMatchObject({
        [keyword]: false,
      });
    }
    const itemsFalse = reduceWebhookSchemas(withIds({ items: false }));
    expect(
      schemaIssues(['e'], itemsFalse.defs.ShareholderEventData.properties!.externalUserIds, itemsFalse.defs),
    ).toMatchObject([{ path: '/0', keyword: 'false schema' }]);
    expect(() => reduceWebhookSchemas(withRule((s) => (s.properties.externalUserIds = true)))).toThrow(
      /externalUserIds: a webhook schema must be an object, not true/,
    );
    expect(() => reduceWebhookSchemas(withRule((s) => (s.allOf = [false])))).toThrow(
      /allOf\/0: a webhook schema must be an object, not false/,
    );
  });
});
