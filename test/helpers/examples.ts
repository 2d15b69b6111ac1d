// Finds every example of a bundled document, with the schema it illustrates,
// and the samples a renderer assembles where a schema has no example of its own.
import { deref, type Json } from './openapi.js';
import { walkSchemas } from './schema-walk.js';

export interface FoundExample {
  /** Where the example stands, for messages. */
  where: string;
  /** JSON pointer of the schema the example must satisfy. */
  schemaPtr: string;
  value: Json;
}

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every example of the document: those of media types, parameters and headers
 * (beside a `schema`), and those written into schemas themselves (not beside a `$ref`).
 */
export function examplesOf(doc: Json): FoundExample[] {
  const found: FoundExample[] = [];
  walkSchemas(doc, (schema, at, holder) => {
    const holderAt = at.slice(0, -'/schema'.length);
    if (holder && 'example' in holder)
      found.push({ where: `${holderAt}/example`, schemaPtr: at, value: holder.example });
    for (const [name, example] of Object.entries<Json>(holder?.examples ?? {}))
      found.push({ where: `${holderAt}/examples/${name}`, schemaPtr: at, value: deref(doc, example).value });
    if (!schema || typeof schema !== 'object' || schema.$ref) return;
    for (const value of Array.isArray(schema.examples) ? schema.examples : [])
      found.push({ where: at, schemaPtr: at, value });
    if ('example' in schema) found.push({ where: `${at}/example`, schemaPtr: at, value: schema.example });
  });
  return found;
}

/** An example value, where it stands, and the description of the named example it is, if any. */
export interface Seen<T = Json> {
  where: string;
  value: T;
  description?: string;
}

/** Every example value of a document: its named examples and those its operations and schemas show. */
export function exampleValues(doc: Json): Seen[] {
  const found: Seen[] = Object.entries<Json>(doc.components?.examples ?? {}).map(([name, example]) => ({
    where: `#/components/examples/${name}`,
    value: deref(doc, example).value,
    description: deref(doc, example).description,
  }));
  // A media type's `$ref` to a named example resolves to the same value: count it once.
  const named = new Set(found.map((f) => f.value));
  for (const e of examplesOf(doc)) if (!named.has(e.value)) found.push({ where: e.where, value: e.value });
  return found;
}

/** A sample a renderer assembles from schema-level examples (`schema`: the component it stands in). */
export type Sample = Seen & { schema: string };

/** The first example a schema gives for a value (its own, its `const`, or the one of the schema it refers to); scalars only. */
function sampleOf(doc: Json, schema: Json): unknown {
  if (!isObject(schema)) return undefined;
  if (Array.isArray(schema.examples) && schema.examples.length && !isObject(schema.examples[0]))
    return schema.examples[0];
  if ('const' in schema) return schema.const;
  return schema.$ref ? sampleOf(doc, deref(doc, { $ref: schema.$ref })) : undefined;
}

/**
 * The samples a reader sees where a schema has no example of its own: for each
 * schema of the components listing `properties` (a component or a nested
 * object), an object of each property's first example, as renderers such as
 * Redoc assemble them. Only properties with an example are kept.
 */
export function schemaSamples(doc: Json): Sample[] {
  const found: Sample[] = [];
  walkSchemas(doc, (schema, where) => {
    if (!where.startsWith('#/components/schemas/') || !isObject(schema?.properties) || schema.$ref) return;
    const value: Json = {};
    for (const [key, property] of Object.entries<Json>(schema.properties)) {
      const sample = sampleOf(doc, property);
      if (sample !== undefined) value[key] = sample;
    }
    if (Object.keys(value).length > 1) found.push({ where, value, schema: where.split('/')[3] });
  });
  return found;
}
