// Every example of every bundled document is valid against its schema, and
// every operation shows its success and each error response by example.
import { describe, expect, it } from 'vitest';
import { APIS } from '../scripts/lib/apis.mjs';
import { examplesOf } from './helpers/examples.js';
import { deref, loadBundle, operationsOf, validatorFor } from './helpers/openapi.js';

describe.each(APIS.map((api) => api.name))('%s document examples', (api) => {
  const doc = loadBundle(api);
  const validator = validatorFor(api);
  const examples = examplesOf(doc);

  it('has examples to check', () => {
    expect(examples.length).toBeGreaterThan(10);
  });

  it.each(examples.map((e) => [e.where, e] as const))('%s is valid', (_where, example) => {
    const validate = validator.at(example.schemaPtr);
    expect(validate(example.value), validator.errors(validate)).toBe(true);
  });

  describe.each(operationsOf(doc).map((o) => [`${o.method.toUpperCase()} ${o.key}`, o] as const))('%s', (_, op) => {
    const responses = Object.entries<ReturnType<typeof deref>>(op.operation.responses ?? {});

    it('declares a success response', () => {
      expect(responses.some(([status]) => status.startsWith('2'))).toBe(true);
    });

    // API responses all carry a JSON body but a 204; a webhook's answer may have none.
    it.each(responses.map(([status, response]) => [status, deref(doc, response)] as const))(
      'response %s shows its body by a named example',
      (status, response) => {
        if (op.kind === 'path' && status !== '204')
          expect(Object.keys(response.content ?? {})).toEqual(['application/json']);
        for (const media of Object.values<ReturnType<typeof deref>>(response.content ?? {})) {
          expect(Object.keys(media.examples ?? {}).length).toBeGreaterThan(0);
        }
      },
    );
  });
});
