// Loads the bundled documents and validates values against their schemas with
// Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) and ajv-formats.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
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
  for (const [kind, section] of [
    ['path', 'paths'],
    ['webhook', 'webhooks'],
  ] as const) {
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
