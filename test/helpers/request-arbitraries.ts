// fast-check arbitraries derived from the bundled OpenAPI documents: values
// from JSON Schema (valid ones, and mutated ones that break one rule), and
// whole HTTP requests per operation, with odd paths, queries, headers and
// bodies. Used by the fuzz tests; nothing here knows a particular operation.
import fc from 'fast-check';
import { deref, type Json } from './openapi.js';

// ---------------------------------------------------------------------------
// Values from JSON Schema
// ---------------------------------------------------------------------------

export interface SchemaArbitraryOptions {
  /** Values for `format: uri`. The sandbox delivers webhooks to a URI it is given, so tests keep these local. */
  uri?: fc.Arbitrary<string>;
  /** Known values (ids that exist) by property or parameter name, mixed in with generated ones for string properties of that name. */
  knownIds?: Record<string, string[]>;
  /** Deeper than this, objects get their required properties only and arrays their minimum length. */
  maxDepth?: number;
}

const SAFE_URIS = fc.constantFrom(
  'https://partner.example.com/kyc/done',
  'https://app.northwind-mobility.example/verification/done?x=1#top',
  'urn:isbn:0451450523',
  'mailto:ops@example.com',
);

const TYPES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'] as const;
type JsonType = (typeof TYPES)[number];

/** Flattens `allOf` (and `$ref`s inside it) into one schema; the keywords of later members win, `required` and `properties` merge. */
export function mergeAllOf(doc: Json, raw: Json): Json {
  const schema = deref(doc, raw);
  if (!schema || typeof schema !== 'object' || !Array.isArray(schema.allOf)) return schema;
  const { allOf, ...rest } = schema;
  const merged: Json = {};
  for (const part of [...allOf.map((p: Json) => mergeAllOf(doc, p)), rest]) {
    for (const [k, v] of Object.entries<Json>(part ?? {})) {
      if (k === 'required') merged.required = [...new Set([...(merged.required ?? []), ...v])];
      else if (k === 'properties') {
        merged.properties = { ...(merged.properties ?? {}) };
        for (const [name, prop] of Object.entries<Json>(v)) {
          merged.properties[name] = merged.properties[name] ? { allOf: [merged.properties[name], prop] } : prop;
        }
      } else merged[k] = v;
    }
  }
  return merged;
}

function typesOf(schema: Json): JsonType[] {
  if (schema.const !== undefined) return [jsonTypeOf(schema.const)];
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map(jsonTypeOf))] as JsonType[];
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties || schema.required || schema.additionalProperties !== undefined) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

export function jsonTypeOf(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as JsonType;
}

const isoDate = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true });

function stringArb(schema: Json, opts: SchemaArbitraryOptions): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 24, min + 24));
  switch (schema.format) {
    case 'date-time':
      return fc.oneof(isoDate.map((d) => d.toISOString()), isoDate.map((d) => d.toISOString().replace(/\.\d+Z$/, '+02:00')));
    case 'date':
      return isoDate.map((d) => d.toISOString().slice(0, 10));
    case 'uuid':
      return fc.uuid();
    case 'uri':
    case 'url':
      return opts.uri ?? SAFE_URIS;
    case 'email':
      return fc.constantFrom('ops@example.com', 'lena.hoffmann@example.org');
    default:
      break;
  }
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => [...s].length >= min && [...s].length <= (schema.maxLength ?? Infinity));
  }
  // Mostly printable ASCII, sometimes any code point (counted as one character by JSON Schema).
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: max, unit: 'binary' }) },
  );
}

function numberArb(schema: Json, integer: boolean): fc.Arbitrary<number> {
  const lo = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 1e-6) : schema.minimum;
  const hi = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : 1e-6) : schema.maximum;
  if (integer || schema.format === 'int32' || schema.format === 'int64') {
    const min = lo ?? -1000;
    const max = hi ?? Math.max(min + 1000, 1000);
    const edges = [min, max].filter((n) => Number.isFinite(n)).map((n) => fc.constant(Math.ceil(n)));
    return fc.oneof({ weight: 4, arbitrary: fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) }, ...edges);
  }
  const min = lo ?? -1e6;
  const max = hi ?? 1e6;
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) },
    { weight: 1, arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)) },
    fc.constant(min),
    fc.constant(max),
  );
}

/** Values valid against the schema (as far as a generator can tell without solving it). */
export function valueFor(doc: Json, raw: Json, opts: SchemaArbitraryOptions = {}, depth = 0): fc.Arbitrary<unknown> {
  const maxDepth = opts.maxDepth ?? 6;
  let schema = mergeAllOf(doc, raw);
  if (schema === true || schema === undefined || (typeof schema === 'object' && Object.keys(schema).length === 0)) {
    return fc.jsonValue({ maxDepth: 2 });
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[key])) {
      const { [key]: branches, ...rest } = schema;
      return fc.oneof(...branches.map((b: Json) => valueFor(doc, { allOf: [rest, b] }, opts, depth)));
    }
  }
  // if/then/else: generate from one of the two combined branches.
  if (schema.if) {
    const { if: cond, then: thenS, else: elseS, ...rest } = schema;
    return fc.oneof(
      valueFor(doc, { allOf: [rest, cond, thenS ?? {}] }, opts, depth),
      valueFor(doc, { allOf: [rest, elseS ?? {}] }, opts, depth),
    );
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const types = typesOf(schema);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...types.map((t) => valueOfType(doc, schema, t, opts, depth, maxDepth)));
}

function valueOfType(doc: Json, schema: Json, type: JsonType, opts: SchemaArbitraryOptions, depth: number, maxDepth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return numberArb(schema, true);
    case 'number':
      return numberArb(schema, false);
    case 'string':
      return stringArb(schema, opts);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = depth >= maxDepth ? minLength : Math.max(minLength, Math.min(schema.maxItems ?? 3, minLength + 3));
      const item = valueFor(doc, schema.items ?? {}, opts, depth + 1);
      return schema.uniqueItems
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength, maxLength });
    }
    case 'object': {
      const props = Object.entries<Json>(schema.properties ?? {});
      const required: string[] = schema.required ?? [];
      const shallow = depth >= maxDepth;
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, prop] of props) {
        if (shallow && !required.includes(name)) continue;
        const generated = valueFor(doc, prop, opts, depth + 1);
        const known = opts.knownIds?.[name] ?? [];
        record[name] = known.length && typesOf(mergeAllOf(doc, prop)).includes('string') ? fc.oneof(fc.constantFrom(...known), generated) : generated;
      }
      const base = fc.record(record, { requiredKeys: required.filter((r) => r in record) });
      const extra = deref(doc, schema.additionalProperties);
      const maxProps = schema.maxProperties ?? Infinity;
      if (!extra || typeof extra !== 'object' || shallow || maxProps === 0) {
        return maxProps === 0 ? fc.constant({}) : base;
      }
      const keyMax = deref(doc, schema.propertyNames)?.maxLength ?? 12;
      const extras = fc.dictionary(fc.string({ minLength: 1, maxLength: Math.min(keyMax, 12) }), valueFor(doc, extra, opts, depth + 1), {
        maxKeys: Math.min(3, maxProps),
        noNullPrototype: true,
      });
      return fc.tuple(base, extras).map(([b, e]) => {
        const out: Record<string, unknown> = { ...e, ...b };
        for (const k of Object.keys(out).slice(maxProps)) delete out[k];
        return out;
      });
    }
  }
}

// ---------------------------------------------------------------------------
// Mutated values: each breaks (at least) one rule of the schema
// ---------------------------------------------------------------------------

export interface Mutated {
  value: unknown;
  /** What was broken, for the statistics: `wrong-type`, `above-maximum`, `missing-required`, ... */
  mutation: string;
  /** Where, as a JSON pointer into the value. */
  at: string;
}

const SAMPLES: Record<JsonType, unknown[]> = {
  null: [null],
  boolean: [true, false],
  integer: [0, -1, 7, 2 ** 53],
  number: [1.5, -0.25, 1e308],
  string: ['', 'x', '42', 'true', 'null', '2026-03-01'],
  array: [[], [1, 'a'], [null]],
  object: [{}, { a: 1 }],
};

function wrongTypes(types: JsonType[]): unknown[] {
  const allowed = new Set(types);
  if (allowed.has('number')) allowed.add('integer');
  return TYPES.filter((t) => !allowed.has(t)).flatMap((t) => SAMPLES[t]);
}

/** Arbitraries of values that break one rule of the schema (none when the schema accepts anything). */
export function mutationsOf(doc: Json, raw: Json, opts: SchemaArbitraryOptions = {}, depth = 0, at = ''): fc.Arbitrary<Mutated>[] {
  const schema = mergeAllOf(doc, raw);
  if (!schema || typeof schema !== 'object' || depth > 4) return [];
  const out: fc.Arbitrary<Mutated>[] = [];
  const m = (mutation: string, value: fc.Arbitrary<unknown>, where = at) => out.push(value.map((v) => ({ value: v, mutation, at: where })));
  const types = typesOf(schema);

  if (schema.oneOf || schema.anyOf) {
    // Break a branch: often still invalid against the whole union (every branch refuses it).
    const branches: Json[] = schema.oneOf ?? schema.anyOf;
    const wrong = wrongTypes(branches.flatMap((b) => typesOf(mergeAllOf(doc, b))));
    if (wrong.length) m('wrong-type', fc.constantFrom(...wrong));
    return out;
  }
  if (types.length) {
    const wrong = wrongTypes(types);
    if (wrong.length) m('wrong-type', fc.constantFrom(...wrong));
  }
  if (schema.const !== undefined) {
    m('unknown-const', fc.constantFrom(`${schema.const}x`, String(schema.const).toUpperCase() + '_', 'other'));
  }
  // A `const` carries a one-value `enum` saying the same (for other generators); the const mutation covers it.
  if (Array.isArray(schema.enum) && schema.const === undefined) {
    const known = new Set(schema.enum);
    const strings = schema.enum.filter((e: unknown) => typeof e === 'string') as string[];
    m(
      'unknown-enum',
      fc
        .oneof(
          fc.constantFrom(...strings.flatMap((s) => [s.toUpperCase(), s.toLowerCase(), ` ${s}`, `${s} `, `${s}s`, s.slice(0, -1)])),
          fc.string({ minLength: 1, maxLength: 12 }),
        )
        .filter((s) => !known.has(s)),
    );
  }
  if (types.includes('string') && !schema.enum && schema.const === undefined) {
    if (schema.maxLength !== undefined) m('too-long', fc.integer({ min: 1, max: 3 }).map((n) => 'a'.repeat(schema.maxLength + n)));
    if (schema.minLength) m('too-short', fc.constant('a'.repeat(schema.minLength - 1)));
    const badFormats: Record<string, string[]> = {
      'date-time': ['yesterday', '2026-13-01T00:00:00Z', '2026-02-30T25:61:00Z', '2026-03-01', '2026-03-01T00:00:00', '1e10', ''],
      date: ['2026-02-30', '03/01/2026', '2026-3-1', '20260301', ''],
      uuid: ['not-a-uuid', '6f1c2b9e4d3a4e8b9a612f7d0c5e8b14', '6f1c2b9e-4d3a-4e8b-9a61-2f7d0c5e8b1', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', ''],
      uri: ['not a uri', '://missing-scheme', 'http://exa mple.com', '', '\\\\server\\share'],
    };
    if (badFormats[schema.format]) m(`bad-format-${schema.format}`, fc.constantFrom(...badFormats[schema.format]));
    if (typeof schema.pattern === 'string') {
      const re = new RegExp(schema.pattern);
      m('pattern-mismatch', fc.oneof(fc.string({ maxLength: 16 }), fc.constantFrom('+0123', '4915112345678', '+49 151 1234', '+1234567890123456')).filter((s) => !re.test(s)));
    }
  }
  if (types.includes('integer') || types.includes('number')) {
    if (typeof schema.minimum === 'number') m('below-minimum', fc.constantFrom(schema.minimum - 1, schema.minimum - 0.5, -1e9));
    if (typeof schema.maximum === 'number') m('above-maximum', fc.constantFrom(schema.maximum + 1, schema.maximum + 0.5, 1e12));
    if (types.includes('integer') && !types.includes('number')) m('not-integer', fc.constantFrom(1.5, 0.1, 2.0000001));
  }
  if (types.includes('array')) {
    if (schema.maxItems !== undefined) m('too-many-items', valueFor(doc, schema.items ?? {}, opts, depth + 1).map((v) => Array(schema.maxItems + 1).fill(v)));
    if (schema.minItems) m('too-few-items', fc.constant([]));
    const inner = mutationsOf(doc, schema.items ?? {}, opts, depth + 1, `${at}/0`);
    if (inner.length) {
      const validItems = fc.array(valueFor(doc, schema.items ?? {}, opts, depth + 1), { maxLength: 2 });
      out.push(fc.tuple(fc.oneof(...inner), validItems).map(([bad, rest]) => ({ ...bad, value: [bad.value, ...rest] })));
    }
  }
  if (types.includes('object')) {
    const valid = valueFor(doc, schema, opts, depth) as fc.Arbitrary<Record<string, unknown>>;
    const required: string[] = schema.required ?? [];
    if (required.length) {
      out.push(
        fc.tuple(valid, fc.constantFrom(...required)).map(([v, name]) => {
          const copy = { ...v };
          delete copy[name];
          return { value: copy, mutation: 'missing-required', at: `${at}/${name}` };
        }),
      );
    }
    if (schema.maxProperties !== undefined) {
      m('too-many-properties', fc.constant(Object.fromEntries(Array.from({ length: schema.maxProperties + 1 }, (_, i) => [`k${i}`, 'v']))));
    }
    const names = deref(doc, schema.propertyNames);
    if (names?.maxLength !== undefined) m('property-name-too-long', fc.constant({ ['k'.repeat(names.maxLength + 1)]: 'v' }));
    if (schema.additionalProperties === false) m('unknown-property', valid.map((v) => ({ ...v, unexpectedProperty: 1 })));
    const extra = deref(doc, schema.additionalProperties);
    if (extra && typeof extra === 'object') {
      const inner = mutationsOf(doc, extra, opts, depth + 1, `${at}/extra`);
      if (inner.length) out.push(fc.oneof(...inner).map((bad) => ({ ...bad, value: { extra: bad.value } })));
    }
    for (const [name, prop] of Object.entries<Json>(schema.properties ?? {})) {
      const inner = mutationsOf(doc, prop, opts, depth + 1, `${at}/${name}`);
      if (!inner.length) continue;
      out.push(fc.tuple(valid, fc.oneof(...inner)).map(([v, bad]) => ({ ...bad, value: { ...v, [name]: bad.value } })));
    }
  }
  return out;
}

/** One value breaking one rule, or (when nothing can be broken) a valid one labelled `none`. */
export function mutatedValueFor(doc: Json, schema: Json, opts: SchemaArbitraryOptions = {}): fc.Arbitrary<Mutated> {
  const all = mutationsOf(doc, schema, opts);
  return all.length ? fc.oneof(...all) : valueFor(doc, schema, opts).map((value) => ({ value, mutation: 'none', at: '' }));
}

// ---------------------------------------------------------------------------
// Whole requests
// ---------------------------------------------------------------------------

/** How the credential is sent; the sender turns it into headers with the key that is valid at send time. */
export type AuthVariant =
  | 'valid'
  | 'missing'
  | 'empty'
  | 'wrong'
  | 'garbage'
  | 'duplicate-valid'
  | 'duplicate-mixed'
  | 'padded'
  | 'lowercase-scheme'
  | 'no-scheme'
  | 'basic-scheme'
  | 'other-header';

export type ContentTypeVariant = 'json' | 'json-charset' | 'missing' | 'text' | 'form' | 'multipart' | 'uppercase' | 'jsonx' | 'garbage' | 'duplicate';

export interface FuzzRequest {
  api: string;
  /** The operation the request was made from (it may reach another route, or none). */
  operationId: string;
  method: string;
  /** Raw request target: path and query, as sent on the request line. */
  target: string;
  auth: AuthVariant;
  /** Garbage for the `garbage` and `duplicate-mixed` variants. */
  authGarbage: string;
  contentType: ContentTypeVariant;
  contentTypeGarbage: string;
  body: string | Buffer | undefined;
  /** Labels of what was done to the request, for the statistics. */
  tags: string[];
}

export interface RequestArbitraryOptions extends SchemaArbitraryOptions {
  /** Prefix of every path (`''`: the documents' paths are absolute). */
  prefix?: string;
  /** Relative integer weights of the kinds of body (defaults valid 12, mutated 8, huge 2; garbage 4, re-spaced 2, missing 2). */
  weights?: Partial<Record<'valid' | 'mutated' | 'huge', number>>;
  /** Allow bodies over 1 MiB. */
  overOneMiB?: boolean;
}

const unreserved = /[A-Za-z0-9\-._~]/;
/** Percent-encodes a query or path value as UTF-8, keeping commas when asked. */
export function encode(value: string, keep = ''): string {
  let out = '';
  for (const ch of value) {
    if (unreserved.test(ch) || keep.includes(ch)) out += ch;
    else out += [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

// Latin-1 printable characters: what a header value or raw request line may carry in Node.
const latin1Char = fc.oneof(fc.integer({ min: 0x21, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((c) => String.fromCharCode(c));
const latin1 = (maxLength: number) => fc.string({ unit: latin1Char, minLength: 1, maxLength });

interface ParamInfo {
  name: string;
  in: string;
  required: boolean;
  schema: Json;
  array: boolean;
  explode: boolean;
}

function paramsOf(doc: Json, pathItem: Json, op: Json): ParamInfo[] {
  return [...(pathItem.parameters ?? []), ...(op.parameters ?? [])].map((raw: Json) => {
    const p = deref(doc, raw);
    const schema = mergeAllOf(doc, p.schema);
    const array = typesOf(schema).includes('array');
    return { name: p.name, in: p.in, required: Boolean(p.required), schema, array, explode: p.explode ?? (p.style ?? 'form') === 'form' };
  });
}

/** How one path parameter is written: a known id, a generated value, or something odd. */
function pathValueArb(doc: Json, p: ParamInfo, opts: RequestArbitraryOptions): fc.Arbitrary<{ text: string; tag?: string }> {
  const known = opts.knownIds?.[p.name] ?? [];
  const normal = valueFor(doc, p.schema, opts).map((v) => ({ text: encode(String(v)) }));
  const odd = fc.oneof(
    fc.constantFrom('%2F', 'a%2Fb', '%2e%2e', '..', '.', '%00', '%', '%zz', '%C3%28', '%FF', '%E2%82', 'a;b=c', 'null', 'undefined', '__proto__', 'constructor', '%20', '%09x')
      .map((text) => ({ text, tag: 'odd-path' })),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map((s) => ({ text: encode(s), tag: 'unicode-path' })),
    // Latin-1 bytes sent raw on the request line: not UTF-8.
    fc.string({ unit: fc.integer({ min: 0xa0, max: 0xff }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 6 }).map((text) => ({ text, tag: 'raw-latin1-path' })),
    fc.constantFrom(300, 4000, 20_000).map((n) => ({ text: 'a'.repeat(n), tag: `long-id-${n}` })),
    fc.uuid().map((u) => ({ text: u.toUpperCase(), tag: 'odd-path' })),
  );
  return fc.oneof(
    ...(known.length ? [{ weight: 5, arbitrary: fc.constantFrom(...known).map((text) => ({ text: encode(text) })) }] : []),
    { weight: 3, arbitrary: normal },
    { weight: 2, arbitrary: odd },
  );
}

type QueryPart = { text: string; tag?: string };

/** One query parameter written as `name=value` pairs (possibly none), valid or broken. */
function queryParamArb(doc: Json, p: ParamInfo, opts: RequestArbitraryOptions): fc.Arbitrary<QueryPart[]> {
  const name = encode(p.name);
  if (p.array) {
    const items = valueFor(doc, p.schema.items ?? {}, opts);
    const list = fc.array(items, { minLength: 1, maxLength: 3 });
    const wellFormed = list.map((vs) =>
      p.explode ? vs.map((v) => ({ text: `${name}=${encode(String(v))}` })) : [{ text: `${name}=${vs.map((v) => encode(String(v))).join(',')}` }],
    );
    const itemMutations = mutationsOf(doc, p.schema.items ?? {}, opts);
    const broken = fc.oneof(
      // The other serialization than the document's.
      list.filter((vs) => vs.length > 1).map((vs) =>
        p.explode
          ? [{ text: `${name}=${vs.map((v) => encode(String(v))).join(',')}`, tag: 'query-comma-joined-wrongly' }]
          : vs.map((v) => ({ text: `${name}=${encode(String(v))}`, tag: 'query-repeated-wrongly' })),
      ),
      fc.constantFrom(',', ',,', '', '%2C', ' , ').map((s) => [{ text: `${name}=${s === ' , ' ? encode(s) : s}`, tag: 'query-empty-items' }]),
      ...(itemMutations.length
        ? [fc.oneof(...itemMutations).map((bad) => [{ text: `${name}=${encode(JSON.stringify(bad.value) ?? '')}`, tag: `query-${bad.mutation}` }, { text: `${name}=${encode(typeof bad.value === 'string' ? bad.value : String(bad.value))}`, tag: `query-${bad.mutation}` }])]
        : []),
    );
    return fc.oneof({ weight: 3, arbitrary: wellFormed }, { weight: 2, arbitrary: broken });
  }
  const scalar = valueFor(doc, p.schema, opts).map((v) => encode(String(v)));
  const mutations = mutationsOf(doc, p.schema, opts);
  const broken = fc.oneof(
    fc.tuple(scalar, scalar).map(([a, b]): QueryPart[] => [{ text: `${name}=${a}`, tag: 'query-repeated' }, { text: `${name}=${b}` }]),
    fc.constantFrom('', '%31', '1e1', '0x10', '%201', 'Infinity', 'NaN', '-0', '1.0', '%zz', '+1', 'true', '[]', '{}', '1,2').map((s): QueryPart[] => [{ text: `${name}=${s}`, tag: 'query-odd-text' }]),
    fc.constant<QueryPart[]>([{ text: name, tag: 'query-no-equals' }]),
    ...(mutations.length ? [fc.oneof(...mutations).map((bad): QueryPart[] => [{ text: `${name}=${encode(typeof bad.value === 'string' ? bad.value : JSON.stringify(bad.value) ?? '')}`, tag: `query-${bad.mutation}` }])] : []),
  );
  return fc.oneof({ weight: 3, arbitrary: scalar.map((v): QueryPart[] => [{ text: `${name}=${v}` }]) }, { weight: 2, arbitrary: broken });
}

const GARBAGE_BODIES = [
  '',
  ' ',
  '{',
  '{"a":',
  '}',
  'null',
  'true',
  '0',
  '"string"',
  '[]',
  '[{}]',
  '{}{}',
  '{"a":1}garbage',
  "{'single':'quotes'}",
  '{"a":1,}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  'undefined',
  'NaN',
  '\uFEFF{}',
  '<xml/>',
  'externalUserId=1&redirectUrl=x',
  '[' .repeat(5000) + ']'.repeat(5000),
  '{"a":'.repeat(3000) + '1' + '}'.repeat(3000),
];

type BodyChoice = { body: string | Buffer | undefined; tags: string[] };

function bodyArb(doc: Json, op: Json, opts: RequestArbitraryOptions): fc.Arbitrary<BodyChoice> {
  const media = deref(doc, op.requestBody)?.content?.['application/json'];
  const w = { valid: 12, mutated: 8, huge: 2, ...opts.weights };
  const garbage = fc.oneof(
    fc.constantFrom(...GARBAGE_BODIES).map((body) => ({ body, tags: ['body-garbage'] })),
    fc.string({ unit: 'binary', maxLength: 40 }).map((body) => ({ body, tags: ['body-random-text'] })),
    fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => ({ body: Buffer.concat([Buffer.from('{"a":"'), Buffer.from(b), Buffer.from('"}')]), tags: ['body-invalid-utf8'] })),
  );
  const huge = fc.oneof(
    fc.integer({ min: 0, max: 4096 }).map((n) => ({ body: JSON.stringify({ reason: 'r'.repeat(100_000 + n), redirectUrl: 'https://partner.example.com/x' }), tags: ['body-100KB'] })),
    fc.integer({ min: 0, max: 4096 }).map((n) => ({ body: `"${'s'.repeat(100_000 + n)}"`, tags: ['body-100KB'] })),
    ...(opts.overOneMiB === false ? [] : [fc.constant<BodyChoice>({ body: JSON.stringify({ metadata: { big: 'm'.repeat(1024 * 1024 + 10) } }), tags: ['body-over-1MiB'] })]),
  );
  if (!media) {
    // No body documented: mostly none, sometimes one anyway.
    return fc.oneof({ weight: 8, arbitrary: fc.constant<BodyChoice>({ body: undefined, tags: [] }) }, { weight: 1, arbitrary: fc.constant<BodyChoice>({ body: '{}', tags: ['body-unexpected'] }) }, { weight: 1, arbitrary: garbage });
  }
  const valid = valueFor(doc, media.schema, opts).map((v) => ({ body: JSON.stringify(v), tags: ['body-valid'] }));
  const mutated = mutatedValueFor(doc, media.schema, opts).map((m) => ({ body: JSON.stringify(m.value) ?? 'null', tags: [`body-${m.mutation}`] }));
  const respaced = valueFor(doc, media.schema, opts).map((v) => ({ body: JSON.stringify(v, null, '\t') + '\n', tags: ['body-respaced'] }));
  return fc.oneof(
    { weight: w.valid, arbitrary: valid },
    { weight: 2, arbitrary: respaced },
    { weight: w.mutated, arbitrary: mutated },
    { weight: 4, arbitrary: garbage },
    { weight: 2, arbitrary: fc.constant<BodyChoice>({ body: undefined, tags: ['body-missing'] }) },
    { weight: w.huge, arbitrary: huge },
  );
}

const authArb: fc.Arbitrary<AuthVariant> = fc.oneof(
  { weight: 20, arbitrary: fc.constant<AuthVariant>('valid') },
  {
    weight: 4,
    arbitrary: fc.constantFrom<AuthVariant>('missing', 'empty', 'wrong', 'garbage', 'duplicate-valid', 'duplicate-mixed', 'padded', 'lowercase-scheme', 'no-scheme', 'basic-scheme', 'other-header'),
  },
);

const contentTypeArb: fc.Arbitrary<ContentTypeVariant> = fc.oneof(
  { weight: 16, arbitrary: fc.constant<ContentTypeVariant>('json') },
  { weight: 5, arbitrary: fc.constantFrom<ContentTypeVariant>('json-charset', 'missing', 'text', 'form', 'multipart', 'uppercase', 'jsonx', 'garbage', 'duplicate') },
);

/** Requests for one operation of a document, from its parameters, body schema and security. */
export function requestFor(doc: Json, api: string, pathKey: string, method: string, opts: RequestArbitraryOptions = {}): fc.Arbitrary<FuzzRequest> {
  const pathItem = deref(doc, doc.paths[pathKey]);
  const op = pathItem[method];
  const params = paramsOf(doc, pathItem, op);
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');

  const path = fc.tuple(...pathParams.map((p) => pathValueArb(doc, p, opts))).map((values) => {
    let text = pathKey;
    const tags: string[] = [];
    pathParams.forEach((p, i) => {
      text = text.replace(`{${p.name}}`, values[i].text);
      if (values[i].tag) tags.push(values[i].tag!);
    });
    return { text, tags };
  });
  const oddStaticPath = fc.constantFrom(
    (t: string) => `${t}/`,
    (t: string) => `/${t}`,
    (t: string) => t.replace(/\/([a-z])/, (_m, c: string) => `/%${c.charCodeAt(0).toString(16)}`),
    (t: string) => t.toUpperCase(),
    (t: string) => `${t}/..`,
    (t: string) => `${t};x=1`,
  );
  const pathWithOdd = fc.oneof(
    { weight: 12, arbitrary: path },
    { weight: 1, arbitrary: fc.tuple(path, oddStaticPath).map(([p, f]) => ({ text: f(p.text), tags: [...p.tags, 'odd-static-path'] })) },
  );

  const query = fc
    .tuple(
      fc.subarray(queryParams),
      fc.tuple(...queryParams.map((p) => queryParamArb(doc, p, opts))),
      fc.oneof(
        { weight: 6, arbitrary: fc.constant<QueryPart[]>([]) },
        {
          weight: 1,
          arbitrary: fc.constantFrom<QueryPart[]>(
            [{ text: 'unknown=1', tag: 'query-unknown' }],
            [{ text: '&&=&', tag: 'query-junk' }],
            [{ text: '%zz=%zz', tag: 'query-junk' }],
            [{ text: `q=${'x'.repeat(3000)}`, tag: 'query-long' }],
          ),
        },
      ),
    )
    .map(([chosen, parts, junk]) => {
      const selected = queryParams.flatMap((p, i) => (chosen.includes(p) || p.required ? parts[i] : []));
      const all = [...selected, ...junk];
      return { text: all.map((q) => q.text).join('&'), tags: all.flatMap((q) => (q.tag ? [q.tag] : [])) };
    });

  const methodArb = fc.oneof(
    { weight: 30, arbitrary: fc.constant(method.toUpperCase()) },
    { weight: 1, arbitrary: fc.constantFrom('PATCH', 'DELETE', 'PUT', 'POST', 'GET', 'OPTIONS').filter((m) => m !== method.toUpperCase()) },
  );

  return fc
    .record({
      method: methodArb,
      path: pathWithOdd,
      query,
      body: bodyArb(doc, op, opts),
      auth: authArb,
      authGarbage: latin1(40),
      contentType: contentTypeArb,
      contentTypeGarbage: latin1(30),
    })
    .map((r) => {
      const prefix = opts.prefix ?? '';
      const target = `${prefix}${r.path.text}${r.query.text ? `?${r.query.text}` : ''}`;
      const tags = [...r.path.tags, ...r.query.tags, ...r.body.tags];
      if (r.method !== method.toUpperCase()) tags.push('wrong-method');
      if (r.auth !== 'valid') tags.push(`auth-${r.auth}`);
      if (r.body.body !== undefined && r.contentType !== 'json') tags.push(`content-type-${r.contentType}`);
      const summary = `${r.method} ${target.length > 200 ? `${target.slice(0, 200)}...(${target.length} chars)` : target} auth=${r.auth} content-type=${r.contentType} body=${
        r.body.body === undefined ? 'none' : r.body.body.length > 200 ? `${r.body.body.length} bytes` : JSON.stringify(String(r.body.body))
      } [${tags.join(', ')}]`;
      return {
        [fc.toStringMethod]: () => summary,
        api,
        operationId: op.operationId,
        method: r.method,
        target,
        auth: r.auth,
        authGarbage: r.authGarbage,
        contentType: r.contentType,
        contentTypeGarbage: r.contentTypeGarbage,
        body: r.body.body,
        tags,
      };
    });
}

/** Requests for every operation of a document (paths, not webhooks), one operation chosen at random each time. */
export function requestsForDocument(doc: Json, api: string, opts: RequestArbitraryOptions = {}): fc.Arbitrary<FuzzRequest> {
  const all: fc.Arbitrary<FuzzRequest>[] = [];
  for (const [pathKey, rawItem] of Object.entries<Json>(doc.paths ?? {})) {
    const item = deref(doc, rawItem);
    for (const method of ['get', 'put', 'post', 'patch', 'delete']) {
      if (item[method]) all.push(requestFor(doc, api, pathKey, method, opts));
    }
  }
  return fc.oneof(...all);
}

/**
 * The headers of a request, with the credential valid at send time. `scheme`
 * says how the API takes its credential: a bearer token in `Authorization`
 * (v2) or a key in `X-Auth-Key` (partner).
 */
export function headersFor(req: FuzzRequest, scheme: 'bearer' | 'authKey', credential: string): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const name = scheme === 'bearer' ? 'authorization' : 'x-auth-key';
  const good = scheme === 'bearer' ? `Bearer ${credential}` : credential;
  switch (req.auth) {
    case 'valid':
      headers[name] = good;
      break;
    case 'missing':
      break;
    case 'empty':
      headers[name] = '';
      break;
    case 'wrong':
      headers[name] = scheme === 'bearer' ? `Bearer ${credential}x` : `${credential.slice(0, -1)}`;
      break;
    case 'garbage':
      headers[name] = req.authGarbage;
      break;
    case 'duplicate-valid':
      headers[name] = [good, good];
      break;
    case 'duplicate-mixed':
      headers[name] = [good, req.authGarbage];
      break;
    case 'padded':
      headers[name] = scheme === 'bearer' ? `Bearer  ${credential}` : `${credential} \t`;
      break;
    case 'lowercase-scheme':
      headers[name] = scheme === 'bearer' ? `bearer ${credential}` : credential.toUpperCase();
      break;
    case 'no-scheme':
      headers[name] = scheme === 'bearer' ? credential : `Bearer ${credential}`;
      break;
    case 'basic-scheme':
      headers.authorization = `Basic ${Buffer.from(`user:${credential}`).toString('base64')}`;
      break;
    case 'other-header':
      // The credential of the other API's scheme.
      if (scheme === 'bearer') headers['x-auth-key'] = credential;
      else headers.authorization = `Bearer ${credential}`;
      break;
  }
  if (req.body !== undefined) {
    const ct: Record<ContentTypeVariant, string | string[] | undefined> = {
      json: 'application/json',
      'json-charset': 'application/json; charset=utf-8',
      missing: undefined,
      text: 'text/plain',
      form: 'application/x-www-form-urlencoded',
      multipart: 'multipart/form-data; boundary=xyz',
      uppercase: 'APPLICATION/JSON',
      jsonx: 'application/jsonx',
      garbage: req.contentTypeGarbage,
      duplicate: ['application/json', 'text/plain'],
    };
    const value = ct[req.contentType];
    if (value !== undefined) headers['content-type'] = value;
  }
  return headers;
}
