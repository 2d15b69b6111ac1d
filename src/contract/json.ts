// The one type for a value read as JSON without a schema to type it: an
// OpenAPI document or a JSON Schema walked by key, or a value generated from
// one. Their generated types describe the API, not the documents' own shape.

export type Json = any;
