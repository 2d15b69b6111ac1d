// Visits every JSON Schema inside an OpenAPI 3.1 document, boolean schemas
// included, with its JSON pointer. Examples and extensions are data, not
// schemas, so they are not entered. helpers/examples.ts finds the examples
// with it.
import { pointer, type Json } from './openapi.js';

const ONE_SCHEMA = [
  'schema',
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'contentSchema',
];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];
const DATA = new Set(['example', 'examples', 'default', 'const', 'enum', 'value']);

/** Called with each schema, its pointer, and for a schema under a `schema` key, the object holding it (a media type, a parameter, a header). */
type Visit = (schema: Json, at: string, holder?: Json) => void;

export function walkSchemas(doc: Json, visit: Visit) {
  const seen = new Set<Json>();
  const schema = (node: Json, at: string[], holder?: Json) => {
    visit(node, pointer(...at), holder);
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    for (const key of ONE_SCHEMA) if (key in node) schema(node[key], [...at, key]);
    for (const key of SCHEMA_LISTS) {
      (node[key] ?? []).forEach((s: Json, i: number) => {
        schema(s, [...at, key, String(i)]);
      });
    }
    for (const key of SCHEMA_MAPS)
      for (const [name, s] of Object.entries(node[key] ?? {})) schema(s, [...at, key, name]);
  };
  // Outside schemas: find every `schema` (parameters, media types, headers)
  // and the component schemas, skipping example data and extensions.
  const document = (node: Json, at: string[]) => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (DATA.has(key) || key.startsWith('x-')) continue;
      const here = [...at, key];
      if (key === 'schema') schema(value, here, node);
      else if (key === 'schemas' && at.at(-1) === 'components') {
        for (const [name, s] of Object.entries(value as object)) schema(s, [...here, name]);
      } else document(value, here);
    }
  };
  document(doc, []);
}

/** Pointers of every boolean `false` schema (write `not: {}` instead). */
export function falseSchemas(doc: Json): string[] {
  const found: string[] = [];
  walkSchemas(doc, (s, at) => {
    if (s === false) found.push(at);
  });
  return found;
}

/** Pointers of every `const` that has no one-value `enum` saying the same beside it. */
export function constsWithoutEnum(doc: Json): string[] {
  const found: string[] = [];
  walkSchemas(doc, (s, at) => {
    if (typeof s !== 'object' || s === null || !('const' in s)) return;
    const same = Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === s.const;
    if (!same) found.push(at);
  });
  return found;
}

/** Every `const` value in a document, for a test that the walk sees them. */
export function constCount(doc: Json): number {
  let n = 0;
  walkSchemas(doc, (s) => {
    if (typeof s === 'object' && s !== null && 'const' in s) n += 1;
  });
  return n;
}
