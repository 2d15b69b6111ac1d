// The one type for a value read as JSON without a schema to type it: an
// OpenAPI document or a JSON Schema walked by key, or a value generated from
// one. Their generated types describe the API, not the documents' own shape.
// And a value's JSON type, read alike by the webhook check and the
// conformance generator.

export type Json = any;

/** The JSON type of a value as JSON Schema names it: `integer` for a whole number, else `number`. */
export const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number' && Number.isInteger(value)
        ? 'integer'
        : typeof value;
