// Checks a parsed webhook against the webhook schemas reduced by scripts/validators.mjs: a small interpreter, because
// compiled validators weigh about 100 KB minified, more than an edge receiver may (W4). It judges as Ajv judges them.
import type { WebhookSchema } from '../../generated/validators/partner-webhooks.js';
import type { PayloadIssue } from './errors.js';
import { FORMATS } from './formats.js';

/** An issue and the keyword that raised it (the tolerant filters of parse.ts read it). */
export interface SchemaIssue extends PayloadIssue {
  keyword: string;
}

type Defs = Readonly<Record<string, WebhookSchema>>;
/** A subschema as JSON Schema allows it: `true` keeps every value, `false` none (where a keyword takes one schema). */
type Subschema = WebhookSchema | boolean;

/** The JSON type of a value as JSON Schema names it (the conformance generator reads types by it too). */
export const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number' && Number.isInteger(value)
        ? 'integer'
        : typeof value;
/** Whether a value of JSON type `type` (from typeOf) is `wanted`: an integer is a number too. */
const isType = (type: string, wanted: string) => type === wanted || (wanted === 'number' && type === 'integer');
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
/** JSON equality as Ajv judges const and enum: arrays item by item, objects by their members in any order. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isObject(a) || !isObject(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((n) => Object.hasOwn(b, n) && equal(a[n], b[n]));
}
const quoted = (values: unknown[]) => `(${values.map((v) => JSON.stringify(v)).join(', ')})`;

// Each pattern compiled once: a receiver checks the same few on every webhook.
const patterns = new Map<string, RegExp>();
const patternOf = (source: string) =>
  patterns.get(source) ?? patterns.set(source, new RegExp(source, 'u')).get(source)!;

const pointer = (path: string, name: string) =>
  `${path}/${name.includes('~') || name.includes('/') ? name.replace(/~/g, '~0').replace(/\//g, '~1') : name}`;

/** Every way `value` at `path` breaks `schema`; none when it keeps it. */
export function schemaIssues(value: unknown, schema: Subschema, defs: Defs, path = ''): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  collect(value, schema, defs, path, issues);
  return issues;
}

/** The issues of the closest of several branches, and the combinator's own, unless enough branches fit. */
function branchIssues(
  value: unknown,
  branches: Subschema[],
  one: boolean,
  defs: Defs,
  path: string,
  issues: SchemaIssue[],
): void {
  const found = branches.map((branch) => schemaIssues(value, branch, defs, path));
  const passing = found.filter((f) => f.length === 0).length;
  if (one ? passing === 1 : passing > 0) return;
  // No branch fits: the closest one says what is wrong.
  if (passing === 0) issues.push(...found.reduce((a, b) => (b.length < a.length ? b : a)));
  issues.push({
    path,
    keyword: one ? 'oneOf' : 'anyOf',
    message: one ? 'must match exactly one schema in oneOf' : 'must match a schema in anyOf',
  });
}

/** Adds to `issues` every way `value` at `path` breaks `subschema`. */
function collect(value: unknown, subschema: Subschema, defs: Defs, path: string, issues: SchemaIssue[]): void {
  if (subschema === true) return;
  const fail = (keyword: string, message: string) => issues.push({ path, keyword, message });
  if (subschema === false) {
    fail('false schema', 'boolean schema is false');
    return;
  }
  const schema = subschema;
  const type = typeOf(value);
  if (schema.$ref !== undefined) collect(value, defs[schema.$ref], defs, path, issues);
  if (schema.type !== undefined) {
    const types = ([] as string[]).concat(schema.type);
    if (!types.some((t) => isType(type, t))) fail('type', `must be ${types.join(',')}`);
  }
  if ('const' in schema && !equal(value, schema.const))
    fail('const', `must be equal to constant ${quoted([schema.const])}`);
  if (schema.enum && !schema.enum.some((v) => equal(value, v)))
    fail('enum', `must be equal to one of the allowed values ${quoted(schema.enum)}`);
  if (type === 'string') {
    // A string of an unlisted format is not checked (the build refuses one).
    if (schema.format !== undefined && FORMATS[schema.format]?.(value as string) === false)
      fail('format', `must match format "${schema.format}"`);
    if (schema.pattern !== undefined && !patternOf(schema.pattern).test(value as string))
      fail('pattern', `must match pattern "${schema.pattern}"`);
  }
  if (type === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? [])
      if (!Object.hasOwn(object, name)) fail('required', `must have required property '${name}'`);
    const properties = schema.properties ?? {};
    for (const [name, child] of Object.entries(properties))
      if (Object.hasOwn(object, name)) collect(object[name], child, defs, pointer(path, name), issues);
    const additional = schema.additionalProperties ?? true;
    if (additional !== true) {
      for (const name of Object.keys(object)) {
        if (Object.hasOwn(properties, name)) continue;
        if (additional === false) fail('additionalProperties', `must NOT have additional properties (${name})`);
        else collect(object[name], additional, defs, pointer(path, name), issues);
      }
    }
  }
  if (schema.items !== undefined && type === 'array') {
    const items = value as unknown[];
    for (let i = 0; i < items.length; i++) collect(items[i], schema.items, defs, `${path}/${i}`, issues);
  }
  for (const part of schema.allOf ?? []) collect(value, part, defs, path, issues);
  if (schema.anyOf) branchIssues(value, schema.anyOf, false, defs, path, issues);
  if (schema.oneOf) branchIssues(value, schema.oneOf, true, defs, path, issues);
  if (schema.not !== undefined && schemaIssues(value, schema.not, defs, path).length === 0)
    fail('not', 'must NOT be valid');
  if (schema.if !== undefined) {
    const holds = schemaIssues(value, schema.if, defs, path).length === 0;
    const branch = holds ? schema.then : schema.else;
    const before = issues.length;
    if (branch !== undefined) collect(value, branch, defs, path, issues);
    if (issues.length > before) fail('if', `must match "${holds ? 'then' : 'else'}" schema`);
  }
}
