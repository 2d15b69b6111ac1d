// Finds every example of a bundled document, with the schema it illustrates.
import { deref, type Json } from './openapi.js';
import { walkSchemas } from './schema-walk.js';

export interface FoundExample {
  /** Where the example stands, for messages. */
  where: string;
  /** JSON pointer of the schema the example must satisfy. */
  schemaPtr: string;
  value: Json;
}

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
