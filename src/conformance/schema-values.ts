// fast-check arbitraries derived from JSON Schema: valid values, and mutated
// ones that break one rule (the conformance runner and the fuzz tests).
import fc from 'fast-check';
import type { Json } from '../contract/json.js';
import { typeOf } from '../webhooks/schema-check.js';
import { resolveRef } from '../contract/json-pointer.js';
import { assumedBy, mergeAssumed } from './assumptions.js';

export interface SchemaArbitraryOptions {
  /** Values for `format: uri`. The sandbox delivers webhooks to a URI it is given, so tests keep these local. */
  uri?: fc.Arbitrary<string>;
  /** Known values (ids that exist) by property or parameter name, mixed in with generated ones for string properties of that name. */
  knownIds?: Record<string, string[]>;
}

/** Deeper than this, objects get their required properties only and arrays their minimum length. */
const MAX_DEPTH = 6;

// Web addresses on documentation hosts only: every `uri` field of the
// documents is one the service sends a browser or a webhook to (a real one may
// try it), and a deployment may fairly refuse another scheme (the sandbox
// does), which must not read as a violation.
const SAFE_URIS = fc.constantFrom(
  'https://partner.example.com/kyc/done',
  'https://app.northwind-mobility.example/verification/done?x=1#top',
  'https://partner.example.com/kyc/error?reason=expired',
);

const TYPES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'] as const;
type JsonType = (typeof TYPES)[number];

/** Flattens `allOf` (and `$ref`s inside it) into one schema; the keywords of later members win, `required` and `properties` merge. */
export function mergeAllOf(doc: Json, raw: Json): Json {
  const schema = resolveRef(doc, raw);
  if (!schema || typeof schema !== 'object' || !Array.isArray(schema.allOf)) return schema;
  const { allOf, ...rest } = schema;
  const merged: Json = {};
  const parts = [...allOf.map((p: Json) => mergeAllOf(doc, p)), rest];
  for (const part of parts) {
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
  // Each part's assumed rules stay named: a later part's own list would hide an earlier one's.
  const assumed = mergeAssumed(parts);
  if (assumed) merged['x-assumed'] = assumed;
  return merged;
}

export function typesOf(schema: Json): JsonType[] {
  if (schema.const !== undefined) return [jsonTypeOf(schema.const)];
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map(jsonTypeOf))] as JsonType[];
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties || schema.required || schema.additionalProperties !== undefined) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

const jsonTypeOf = (v: unknown) => typeOf(v) as JsonType;

const isoDate = fc.date({
  min: new Date('1900-01-01T00:00:00Z'),
  max: new Date('2100-12-31T23:59:59Z'),
  noInvalidDate: true,
});

// Values of the formats the documents use; `uri` ones come from the options.
const FORMAT_VALUES: Record<string, fc.Arbitrary<string>> = {
  'date-time': fc.oneof(
    isoDate.map((d) => d.toISOString()),
    isoDate.map((d) => d.toISOString().replace(/\.\d+Z$/, '+02:00')),
  ),
  date: isoDate.map((d) => d.toISOString().slice(0, 10)),
  uuid: fc.uuid(),
  email: fc.constantFrom('ops@example.com', 'lena.hoffmann@example.org'),
};

function stringArb(schema: Json, opts: SchemaArbitraryOptions): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 24, min + 24));
  if (schema.format === 'uri' || schema.format === 'url') return opts.uri ?? SAFE_URIS;
  if (Object.hasOwn(FORMAT_VALUES, schema.format ?? '')) return FORMAT_VALUES[schema.format];
  if (typeof schema.pattern === 'string') {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => [...s].length >= min && [...s].length <= (schema.maxLength ?? Infinity));
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
    // `+ 0` turns -0, which JSON writes as 0, into 0.
    { weight: 1, arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => n + 0) },
    fc.constant(min),
    fc.constant(max),
  );
}

/** Values valid against the schema (as far as a generator can tell without solving it). */
export function valueFor(doc: Json, raw: Json, opts: SchemaArbitraryOptions = {}, depth = 0): fc.Arbitrary<unknown> {
  const schema = mergeAllOf(doc, raw);
  if (schema === true || schema === undefined || (typeof schema === 'object' && Object.keys(schema).length === 0)) {
    return fc.jsonValue({ maxDepth: 2 });
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[key])) {
      const { [key]: branches, ...rest } = schema;
      return fc.oneof(...branches.map((b: Json) => valueFor(doc, { allOf: [rest, b] }, opts, depth)));
    }
  }
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
  return fc.oneof(...types.map((t) => valueOfType(doc, schema, t, opts, depth)));
}

function valueOfType(doc: Json, schema: Json, type: JsonType, opts: SchemaArbitraryOptions, depth: number) {
  if (type === 'null') return fc.constant(null);
  if (type === 'boolean') return fc.boolean();
  if (type === 'integer' || type === 'number') return numberArb(schema, type === 'integer');
  if (type === 'string') return stringArb(schema, opts);
  if (type === 'array') {
    const minLength = schema.minItems ?? 0;
    const maxLength =
      depth >= MAX_DEPTH ? minLength : Math.max(minLength, Math.min(schema.maxItems ?? 3, minLength + 3));
    const item = valueFor(doc, schema.items ?? {}, opts, depth + 1);
    // Duplicates would be refused, thinning what the operation is asked.
    if (schema.uniqueItems) return fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) });
    return fc.array(item, { minLength, maxLength });
  }
  const props = Object.entries<Json>(schema.properties ?? {});
  const required: string[] = schema.required ?? [];
  const shallow = depth >= MAX_DEPTH;
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, prop] of props) {
    if (shallow && !required.includes(name)) continue;
    const generated = valueFor(doc, prop, opts, depth + 1);
    const known = opts.knownIds?.[name] ?? [];
    record[name] =
      known.length && typesOf(mergeAllOf(doc, prop)).includes('string')
        ? fc.oneof(fc.constantFrom(...known), generated)
        : generated;
  }
  const base = fc.record(record, { requiredKeys: required.filter((r) => r in record) });
  const extra = resolveRef(doc, schema.additionalProperties);
  const maxProps = schema.maxProperties ?? Infinity;
  if (maxProps === 0) return fc.constant({});
  if (!extra || typeof extra !== 'object' || shallow) return base;
  const keyMax = resolveRef(doc, schema.propertyNames)?.maxLength ?? 12;
  const extras = fc.dictionary(
    fc.string({ minLength: 1, maxLength: Math.min(keyMax, 12) }),
    valueFor(doc, extra, opts, depth + 1),
    { maxKeys: Math.min(3, maxProps), noNullPrototype: true },
  );
  return fc.tuple(base, extras).map(([b, e]) => {
    const out: Record<string, unknown> = { ...e, ...b };
    for (const k of Object.keys(out).slice(maxProps)) delete out[k];
    return out;
  });
}

export interface Mutated {
  value: unknown;
  /** What was broken, for the statistics: `wrong-type`, `above-maximum`, `missing-required`, ... */
  mutation: string;
  /** Where, as a JSON pointer into the value. */
  at: string;
  /** The assumption rows (`x-assumed`) the broken rule rests on; empty for a rule of the documents. */
  assumed: string[];
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
export function mutationsOf(
  doc: Json,
  raw: Json,
  opts: SchemaArbitraryOptions = {},
  depth = 0,
  at = '',
): fc.Arbitrary<Mutated>[] {
  const schema = mergeAllOf(doc, raw);
  if (!schema || typeof schema !== 'object' || depth > 4) return [];
  const out: fc.Arbitrary<Mutated>[] = [];
  // Each mutation named as the report names it, with the keyword whose rule it breaks.
  const m = (mutation: string, keyword: string, value: fc.Arbitrary<unknown>) =>
    out.push(value.map((v) => ({ value: v, mutation, at, assumed: assumedBy(schema, keyword, v) })));
  const types = typesOf(schema);

  // A union: a type no branch lists, often still invalid against the whole union (each branch refuses it).
  const branches: Json[] | undefined = schema.oneOf ?? schema.anyOf;
  const listed = branches ? branches.flatMap((b) => typesOf(mergeAllOf(doc, b))) : types;
  const wrong = branches || types.length ? wrongTypes(listed) : [];
  if (wrong.length) m('wrong-type', 'type', fc.constantFrom(...wrong));
  if (branches) return out;
  if (schema.const !== undefined) {
    m('unknown-const', 'const', fc.constantFrom(`${schema.const}x`, `${String(schema.const).toUpperCase()}_`, 'other'));
  }
  // A `const` carries a one-value `enum` saying the same (for other generators); the const mutation covers it.
  if (Array.isArray(schema.enum) && schema.const === undefined) {
    const known = new Set(schema.enum);
    const strings = schema.enum.filter((e: unknown) => typeof e === 'string') as string[];
    const near = strings.flatMap((s) => [s.toUpperCase(), s.toLowerCase(), ` ${s}`, `${s} `, `${s}s`, s.slice(0, -1)]);
    const other = fc.oneof(fc.constantFrom(...near), fc.string({ minLength: 1, maxLength: 12 }));
    const unknown = other.filter((s) => !known.has(s));
    m('unknown-enum', 'enum', unknown);
  }
  if (types.includes('string') && !schema.enum && schema.const === undefined) {
    const longer = fc.integer({ min: 1, max: 3 }).map((n) => 'a'.repeat(schema.maxLength + n));
    if (schema.maxLength !== undefined) m('too-long', 'maxLength', longer);
    if (schema.minLength) m('too-short', 'minLength', fc.constant('a'.repeat(schema.minLength - 1)));
    const badFormats: Record<string, string[]> = {
      'date-time': [
        'yesterday',
        '2026-13-01T00:00:00Z',
        '2026-02-30T25:61:00Z',
        '2026-03-01',
        '2026-03-01T00:00:00',
        '1e10',
        '',
      ],
      date: ['2026-02-30', '03/01/2026', '2026-3-1', '20260301', ''],
      uuid: [
        'not-a-uuid',
        '6f1c2b9e4d3a4e8b9a612f7d0c5e8b14',
        '6f1c2b9e-4d3a-4e8b-9a61-2f7d0c5e8b1',
        'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
        '',
      ],
      uri: ['not a uri', '://missing-scheme', 'http://exa mple.com', '', '\\\\server\\share'],
    };
    if (badFormats[schema.format])
      m(`bad-format-${schema.format}`, 'format', fc.constantFrom(...badFormats[schema.format]));
    if (typeof schema.pattern === 'string') {
      const re = new RegExp(schema.pattern);
      const phoneLike = fc.constantFrom('+0123', '4915112345678', '+49 151 1234', '+1234567890123456');
      const mismatched = fc.oneof(fc.string({ maxLength: 16 }), phoneLike).filter((s) => !re.test(s));
      m('pattern-mismatch', 'pattern', mismatched);
    }
  }
  if (types.includes('integer') || types.includes('number')) {
    if (typeof schema.minimum === 'number')
      m('below-minimum', 'minimum', fc.constantFrom(schema.minimum - 1, schema.minimum - 0.5, -1e9));
    if (typeof schema.maximum === 'number')
      m('above-maximum', 'maximum', fc.constantFrom(schema.maximum + 1, schema.maximum + 0.5, 1e12));
    if (types.includes('integer') && !types.includes('number'))
      m('not-integer', 'integer', fc.constantFrom(1.5, 0.1, 2.0000001));
  }
  if (types.includes('array')) {
    const item = valueFor(doc, schema.items ?? {}, opts, depth + 1);
    const tooMany = item.map((v) => Array(schema.maxItems + 1).fill(v));
    if (schema.maxItems !== undefined) m('too-many-items', 'maxItems', tooMany);
    if (schema.minItems) m('too-few-items', 'minItems', fc.constant([]));
    const inner = mutationsOf(doc, schema.items ?? {}, opts, depth + 1, `${at}/0`);
    const badFirst = ([bad, rest]: [Mutated, unknown[]]) => ({ ...bad, value: [bad.value, ...rest] });
    if (inner.length) out.push(fc.tuple(fc.oneof(...inner), fc.array(item, { maxLength: 2 })).map(badFirst));
  }
  if (types.includes('object')) {
    const valid = valueFor(doc, schema, opts, depth) as fc.Arbitrary<Record<string, unknown>>;
    const required: string[] = schema.required ?? [];
    const assumed = assumedBy(schema, 'required');
    const without = ([v, name]: [Record<string, unknown>, string]) => {
      const copy = { ...v };
      delete copy[name];
      return { value: copy, mutation: 'missing-required', at: `${at}/${name}`, assumed };
    };
    if (required.length) out.push(fc.tuple(valid, fc.constantFrom(...required)).map(without));
    const crowded = Object.fromEntries(Array.from({ length: schema.maxProperties + 1 }, (_, i) => [`k${i}`, 'v']));
    if (schema.maxProperties !== undefined) m('too-many-properties', 'maxProperties', fc.constant(crowded));
    const names = resolveRef(doc, schema.propertyNames);
    if (names?.maxLength !== undefined)
      m('property-name-too-long', 'propertyNames', fc.constant({ ['k'.repeat(names.maxLength + 1)]: 'v' }));
    const withUnknown = valid.map((v) => ({ ...v, unexpectedProperty: 1 }));
    if (schema.additionalProperties === false) m('unknown-property', 'additionalProperties', withUnknown);
    const extra = resolveRef(doc, schema.additionalProperties);
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
  return all.length
    ? fc.oneof(...all)
    : valueFor(doc, schema, opts).map((value) => ({ value, mutation: 'none', at: '', assumed: [] }));
}

/** Percent-encodes a query or path value as UTF-8: all but RFC 3986's unreserved characters, a lone surrogate as U+FFFD. */
export const encode = (value: string): string =>
  encodeURIComponent(value.replace(/\p{Surrogate}/gu, '\uFFFD')).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
