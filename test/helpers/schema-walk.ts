// Visits every JSON Schema inside an OpenAPI 3.1 document, boolean schemas included, with
// its JSON pointer; examples and extensions are data, not schemas, so they are not entered.
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
    // A list's entries by index, a map's by name.
    for (const key of [...SCHEMA_LISTS, ...SCHEMA_MAPS])
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

/** Pointers of every schema of the document that `test` holds of. */
export function schemasWhere(doc: Json, test: (schema: Json) => boolean): string[] {
  const found: string[] = [];
  walkSchemas(doc, (s, at) => {
    if (test(s)) found.push(at);
  });
  return found;
}
