// Loads the bundled documents and validates values against their schemas with
// Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) and ajv-formats.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
// The package's one $ref resolver, under the name the tests read.
import { escapePointerToken, resolveRef as deref } from '../../src/contract/json-pointer.js';
import type { Json } from '../../src/contract/json.js';

export { deref, type Json };

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const documents = new Map<string, Json>();

export function loadBundle(api: string): Json {
  if (!documents.has(api)) {
    const file = path.join(ROOT, 'generated', 'openapi', `${api}.json`);
    documents.set(api, JSON.parse(readFileSync(file, 'utf8')));
  }
  return documents.get(api);
}

export const pointer = (...parts: (string | number)[]) =>
  `#/${parts.map((p) => escapePointerToken(String(p))).join('/')}`;

export interface SchemaValidator {
  /** Asserts (with vitest's expect) that a value is valid against a named component schema. */
  expectValid(name: string, value: unknown): void;
  /** Validator of the schema at a JSON pointer of the document. */
  at(ptr: string): ValidateFunction;
  /** Validator of a named component schema. */
  schema(name: string): ValidateFunction;
  /** Human-readable errors of the last validation. */
  errors(fn: ValidateFunction): string;
}

export function validatorFor(api: string): SchemaValidator {
  const doc = loadBundle(api);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, api);
  const cache = new Map<string, ValidateFunction>();
  const at = (ptr: string) => {
    if (!cache.has(ptr)) cache.set(ptr, ajv.compile({ $ref: `${api}${ptr}` }));
    return cache.get(ptr)!;
  };
  const errors = (fn: ValidateFunction) => ajv.errorsText(fn.errors, { separator: '\n' });
  return {
    expectValid: (name, value) => {
      const validate = at(pointer('components', 'schemas', name));
      expect(validate(value), errors(validate)).toBe(true);
    },
    at,
    schema: (name) => at(pointer('components', 'schemas', name)),
    errors,
  };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationEntry {
  kind: 'path' | 'webhook';
  key: string;
  method: string;
  operation: Json;
  ptr: string;
}

/** Every operation of the document: paths and webhooks. */
export function operationsOf(doc: Json): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const kind of ['path', 'webhook'] as const) {
    const section = `${kind}s`;
    for (const [key, rawItem] of Object.entries<Json>(doc[section] ?? {})) {
      const item = deref(doc, rawItem);
      for (const method of HTTP_METHODS) {
        if (item[method]) {
          entries.push({ kind, key, method, operation: item[method], ptr: pointer(section, key, method) });
        }
      }
    }
  }
  return entries;
}

/** A validator, or a function that places a value in a document and validates that. */
type Judge = ValidateFunction | ((value: unknown) => boolean);
const errorsOf = (validate: Judge) => JSON.stringify((validate as ValidateFunction).errors ?? []);
export const wantValid = (validate: Judge, value: unknown, label = '') =>
  expect(validate(value), `${label} ${errorsOf(validate)}`).toBe(true);
export const wantInvalid = (validate: Judge, value: unknown, label = '') => expect(validate(value), label).toBe(false);

/** In a fact's values: the field left out. */
export const ABSENT = Symbol('absent');
/**
 * A documented rule of one field: where it is stated (`L145`, a line of the
 * service's documentation, or a decision row of openapi/DECISIONS.md), the
 * field, values it takes and values it refuses (ABSENT: left out).
 */
export type FieldFact = [source: string, field: string, valid: unknown[], invalid: unknown[]];

/** One named test per fact: each value set into a fresh copy of `base` and judged by `validate`. */
export function checkFieldFacts(validate: Judge, base: () => Json, facts: FieldFact[]) {
  const withValue = (field: string, value: unknown) => {
    const { [field]: _left, ...rest } = base();
    return value === ABSENT ? rest : { ...rest, [field]: value };
  };
  const label = (field: string, value: unknown) =>
    value === ABSENT ? `without ${field}` : `${field}=${JSON.stringify(value)?.slice(0, 60)}`;
  it.each(facts)('%s %s', (_source, field, valid, invalid) => {
    for (const value of valid) wantValid(validate, withValue(field, value), label(field, value));
    for (const value of invalid) wantInvalid(validate, withValue(field, value), label(field, value));
  });
}
