import fc from 'fast-check';
export type Json = any;
/** Resolves a local `$ref` (and chains of them) inside a document. */
export declare function deref(doc: Json, node: Json): Json;
export interface SchemaArbitraryOptions {
    /** Values for `format: uri`. The sandbox delivers webhooks to a URI it is given, so tests keep these local. */
    uri?: fc.Arbitrary<string>;
    /** Known values (ids that exist) by property or parameter name, mixed in with generated ones for string properties of that name. */
    knownIds?: Record<string, string[]>;
    /** Deeper than this, objects get their required properties only and arrays their minimum length. */
    maxDepth?: number;
}
declare const TYPES: readonly ["null", "boolean", "integer", "number", "string", "array", "object"];
type JsonType = (typeof TYPES)[number];
/** Flattens `allOf` (and `$ref`s inside it) into one schema; the keywords of later members win, `required` and `properties` merge. */
export declare function mergeAllOf(doc: Json, raw: Json): Json;
export declare function typesOf(schema: Json): JsonType[];
export declare function jsonTypeOf(v: unknown): JsonType;
/** Values valid against the schema (as far as a generator can tell without solving it). */
export declare function valueFor(doc: Json, raw: Json, opts?: SchemaArbitraryOptions, depth?: number): fc.Arbitrary<unknown>;
export interface Mutated {
    value: unknown;
    /** What was broken, for the statistics: `wrong-type`, `above-maximum`, `missing-required`, ... */
    mutation: string;
    /** Where, as a JSON pointer into the value. */
    at: string;
}
/** Arbitraries of values that break one rule of the schema (none when the schema accepts anything). */
export declare function mutationsOf(doc: Json, raw: Json, opts?: SchemaArbitraryOptions, depth?: number, at?: string): fc.Arbitrary<Mutated>[];
/** One value breaking one rule, or (when nothing can be broken) a valid one labelled `none`. */
export declare function mutatedValueFor(doc: Json, schema: Json, opts?: SchemaArbitraryOptions): fc.Arbitrary<Mutated>;
/** Percent-encodes a query or path value as UTF-8, keeping commas when asked. */
export declare function encode(value: string, keep?: string): string;
export {};
