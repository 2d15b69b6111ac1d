// Finds every example of a bundled document, with the schema it illustrates.
import { deref, pointer, type Json } from './openapi.js';

export interface FoundExample {
  /** Where the example stands, for messages. */
  where: string;
  /** JSON pointer of the schema the example must satisfy. */
  schemaPtr: string;
  value: Json;
}

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_SINGLE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];

/** Examples inside schemas (`examples: [...]`), walking every subschema. */
function schemaExamples(schema: Json, parts: string[], found: FoundExample[]) {
  if (!schema || typeof schema !== 'object' || schema.$ref) return;
  const ptr = pointer(...parts);
  for (const value of Array.isArray(schema.examples) ? schema.examples : []) {
    found.push({ where: ptr, schemaPtr: ptr, value });
  }
  if ('example' in schema) found.push({ where: `${ptr}/example`, schemaPtr: ptr, value: schema.example });
  for (const key of SUBSCHEMA_MAPS) {
    for (const [name, sub] of Object.entries<Json>(schema[key] ?? {}))
      schemaExamples(sub, [...parts, key, name], found);
  }
  for (const key of SUBSCHEMA_LISTS) {
    (schema[key] ?? []).forEach((sub: Json, i: number) => {
      schemaExamples(sub, [...parts, key, String(i)], found);
    });
  }
  for (const key of SUBSCHEMA_SINGLE) {
    if (schema[key] && typeof schema[key] === 'object') schemaExamples(schema[key], [...parts, key], found);
  }
}

/**
 * Every example of the document: those of media types, parameters and headers
 * (beside a `schema`), and those written into schemas themselves.
 */
export function examplesOf(doc: Json): FoundExample[] {
  const found: FoundExample[] = [];
  const walk = (node: Json, parts: string[]) => {
    if (!node || typeof node !== 'object') return;
    if (node.schema && typeof node.schema === 'object' && !Array.isArray(node.schema)) {
      const schemaPtr = pointer(...parts, 'schema');
      if ('example' in node) found.push({ where: pointer(...parts, 'example'), schemaPtr, value: node.example });
      for (const [name, example] of Object.entries<Json>(node.examples ?? {})) {
        found.push({ where: pointer(...parts, 'examples', name), schemaPtr, value: deref(doc, example).value });
      }
      schemaExamples(node.schema, [...parts, 'schema'], found);
    }
    for (const [key, child] of Object.entries<Json>(node)) {
      if (key === 'examples' || key === 'schema') continue;
      walk(child, [...parts, key]);
    }
  };
  walk(doc, []);
  for (const [name, schema] of Object.entries<Json>(doc.components?.schemas ?? {})) {
    schemaExamples(schema, ['components', 'schemas', name], found);
  }
  return found;
}
