// The bundles avoid the JSON Schema forms generators misread: orval's zod output and
// openapi-zod-client crash on a boolean `false` schema, and openapi-zod-client makes a bare
// `const` z.string(), breaking its discriminated unions. This names the place in a bundle.
import { describe, expect, it } from 'vitest';
import { APIS } from '../scripts/lib/apis.mjs';
import { type Json, loadBundle } from './helpers/openapi.js';
import { schemasWhere } from './helpers/schema-walk.js';

const isFalse = (s: Json) => s === false;
const hasConst = (s: Json) => typeof s === 'object' && s !== null && 'const' in s;
/** A `const` with no one-value `enum` saying the same beside it. */
const constWithoutEnum = (s: Json) => hasConst(s) && !(s.enum?.length === 1 && s.enum[0] === s.const);

describe.each(APIS.map((api) => api.name))('the %s bundle', (api) => {
  it('has no boolean `false` schema (a field that must be absent says `not: {}`), and every `const` also as a one-value `enum`', () => {
    expect(schemasWhere(loadBundle(api), isFalse)).toEqual([]);
    expect(schemasWhere(loadBundle(api), constWithoutEnum)).toEqual([]);
  });
});

describe('the checks find what they look for', () => {
  const doc = {
    components: {
      schemas: {
        Created: {
          type: 'object',
          properties: { updatedAt: false, status: { const: 'created' }, kind: { const: 'a', enum: ['a'] } },
          examples: [{ updatedAt: false, status: { const: 'not a schema' } }],
        },
      },
    },
    paths: {
      '/x': {
        get: { parameters: [{ name: 'q', in: 'query', schema: { items: false, oneOf: [{ const: 1, enum: [2] }] } }] },
      },
    },
  };

  it('reports a `false` schema in properties and items, not in examples, and a `const` with no enum or another one', () => {
    expect(schemasWhere(doc, isFalse)).toEqual([
      '#/components/schemas/Created/properties/updatedAt',
      '#/paths/~1x/get/parameters/0/schema/items',
    ]);
    expect(schemasWhere(doc, constWithoutEnum)).toEqual([
      '#/components/schemas/Created/properties/status',
      '#/paths/~1x/get/parameters/0/schema/oneOf/0',
    ]);
  });

  it('sees the discriminating consts of the partner bundle (type, eventType, dataType)', () => {
    // 4 collected requirement types, 7 eventTypes, 7 dataTypes at least.
    expect(schemasWhere(loadBundle('partner'), hasConst).length).toBeGreaterThanOrEqual(18);
  });
});
