// Body fields a request schema does not declare: the validator lets them
// through, so a typo (`timeToExpire`) would be ignored and the default used;
// the sandbox refuses them (S45), suggesting the declared name. Free-form
// objects take any keys. Ajv's `unevaluatedProperties` would need every
// schema rewritten and precompiled again for workerd, and gives no declared
// names to suggest from; one walk serves requests, answers and webhooks.
import { distance as levenshtein } from 'fastest-levenshtein';
import { MAX_DEPTH } from './body-limits.js';
import { resolveRef } from './json-pointer.js';
import type { Violation } from './routes.js';

type Schema = Record<string, unknown>;

/** What a schema, with its `$ref`s, `allOf`, `oneOf` and `anyOf` branches, declares of an object or array. */
interface Shape {
  /** Any key is accepted (free-form, or nothing declared to compare with). */
  free: boolean;
  /** Each declared property and its schemas (one per branch that declares it). */
  properties: Map<string, unknown[]>;
  /** The schemas of array items, and of the items at each position (`prefixItems`). */
  items: unknown[];
  prefixItems: unknown[][];
}

const isObject = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);

function shapeOf(doc: unknown, schemas: unknown[]): Shape {
  const shape: Shape = { free: false, properties: new Map(), items: [], prefixItems: [] };
  const seen = new Set<unknown>();
  for (const pending = [...schemas]; pending.length; ) {
    const schema = resolveRef(doc, pending.pop());
    // `true` or anything unreadable is no schema to judge keys by.
    if (!isObject(schema)) shape.free = true;
    if (!isObject(schema) || seen.has(schema)) continue;
    seen.add(schema);
    const extra = schema.additionalProperties;
    if (extra === true || isObject(extra) || schema.patternProperties !== undefined) shape.free = true;
    for (const [name, sub] of Object.entries(isObject(schema.properties) ? schema.properties : {}))
      shape.properties.set(name, [...(shape.properties.get(name) ?? []), sub]);
    if (isObject(schema.items)) shape.items.push(schema.items);
    if (Array.isArray(schema.prefixItems))
      for (const [i, sub] of schema.prefixItems.entries())
        shape.prefixItems[i] = [...(shape.prefixItems[i] ?? []), sub];
    // A field is known when any branch declares it.
    for (const branches of [schema.allOf, schema.oneOf, schema.anyOf])
      if (Array.isArray(branches)) pending.push(...branches);
  }
  // `{}`, `{type: object}` or `maxProperties: 0` alone: the validator judges such an object, not a list of names.
  if (shape.properties.size === 0) shape.free = true;
  return shape;
}

// Made once per schema: strict-answers.ts asks at every object of every answer, and a
// list walked anew each time cost several times the answer's own work.
const shapes = new WeakMap<object, WeakMap<object, Shape>>();

function cachedShapeOf(doc: unknown, schemas: unknown[]): Shape {
  // One schema is its own key (the walk's first list is new each time); several, the list a cached shape holds.
  const key = schemas.length === 1 ? schemas[0] : schemas;
  if (typeof key !== 'object' || key === null || !isObject(doc)) return shapeOf(doc, schemas);
  const ofDoc = shapes.get(doc) ?? shapes.set(doc, new WeakMap()).get(doc)!;
  return ofDoc.get(key) ?? ofDoc.set(key, shapeOf(doc, schemas)).get(key)!;
}

/**
 * The declared name `name` is probably meant to be: the closest ignoring case, within a third of
 * its length (at least one edit), so `typ` finds `type` but `colour` nothing that shares a letter or two.
 */
export function closestName(name: string, declared: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  const near = [...declared].map((candidate) => ({
    candidate,
    edits: levenshtein(name.toLowerCase(), candidate.toLowerCase()),
  }));
  // The first of the closest, in declared order (the sort is stable).
  return near.filter((n) => n.edits <= limit).sort((a, b) => a.edits - b.edits)[0]?.candidate;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const member = (key: string) => (IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);

/**
 * Calls `found` with each field of `body` that `schema` does not declare: its object, key and path
 * (built only for these). Below MAX_DEPTH nothing is looked at: the body's bounds refuse it anyway.
 */
function visitUnknownFields(
  doc: unknown,
  schema: unknown,
  body: unknown,
  field: string,
  found: (owner: Record<string, unknown>, key: string, path: string, documented: string[]) => void,
): void {
  // The steps to the value walked, joined into a path only for an unknown field (most values have none).
  const steps: string[] = [field];
  const walk = (schemas: unknown[], value: unknown, depth: number) => {
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || schemas.length === 0) return;
    const shape = cachedShapeOf(doc, schemas);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        steps.push(`.${i}`);
        walk(shape.prefixItems[i] ?? shape.items, value[i], depth + 1);
        steps.pop();
      }
      return;
    }
    const owner = value as Record<string, unknown>;
    for (const key of Object.keys(owner)) {
      const declared = shape.properties.get(key);
      const sub = owner[key];
      if (declared) {
        if (sub === null || typeof sub !== 'object') continue;
        steps.push(member(key));
        walk(declared, sub, depth + 1);
        steps.pop();
      } else if (!shape.free) found(owner, key, `${steps.join('')}${member(key)}`, [...shape.properties.keys()]);
    }
  };
  walk([schema], body, 0);
}

/** Violations for each field of `body` that `schema` does not declare, with `params.suggestion` where a name is close. */
export function unknownFieldViolations(doc: unknown, schema: unknown, body: unknown, field = 'body'): Violation[] {
  const violations: Violation[] = [];
  visitUnknownFields(doc, schema, body, field, (_owner, key, path, documented) => {
    const suggestion = closestName(key, documented);
    const message =
      suggestion === undefined
        ? `is not a documented field (documented here: ${documented.join(', ')})`
        : `is not a documented field; did you mean ${suggestion}?`;
    const params = { message, ...(suggestion === undefined ? {} : { suggestion }), documented };
    violations.push({ field: path, reasonCode: 'UNKNOWN_FIELD', params });
  });
  return violations;
}

/** Drops the undeclared fields of a body accepted with them (`allowUnknownFields`), so nothing undocumented is stored. */
export function dropUnknownFields(doc: unknown, schema: unknown, body: unknown): void {
  visitUnknownFields(doc, schema, body, 'body', (owner, key) => {
    delete owner[key];
  });
}
