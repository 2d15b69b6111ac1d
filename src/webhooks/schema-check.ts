// Checks a parsed webhook against the partner document's webhook schemas,
// reduced by scripts/validators.mjs to the keywords that judge a value
// (generated/validators/partner-webhooks.js): a small interpreter instead of
// compiled validators, because the compiled ones weigh about 100 KB
// minified, more than an edge receiver may (W4). It judges as Ajv judges the
// same schemas (JSON Schema 2020-12, all errors), boolean subschemas and
// object-valued const and enum included: test/webhook-checks.test.ts
// compares the two keyword by keyword and on generated webhook payloads.
import type { WebhookSchema } from '../../generated/validators/partner-webhooks.js';
import type { PayloadIssue } from './errors.js';
import { FORMATS } from './formats.js';

/** An issue and the keyword that raised it (the tolerant filters of parse.ts read it). */
export interface SchemaIssue extends PayloadIssue {
  keyword: string;
}

type Defs = Readonly<Record<string, WebhookSchema>>;
/**
 * A subschema as JSON Schema allows it: `true` keeps every value, `false`
 * none. The reducer passes booleans through where a keyword takes one
 * schema (items, not, if, then, else, additionalProperties).
 */
type Subschema = WebhookSchema | boolean;

const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number' && Number.isInteger(value)
        ? 'integer'
        : typeof value;
const hasType = (value: unknown, type: string) => {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
};
/** Whether a value of JSON type `type` (from typeOf) is one of `types`. */
function typeIn(types: string[], type: string): boolean {
  for (const t of types) if (t === type || (t === 'number' && type === 'integer')) return true;
  return false;
}
/** JSON equality as Ajv judges const and enum: arrays item by item, objects by their members in any order. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return false;
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return false;
  return names.every(
    (name) =>
      Object.hasOwn(b, name) && equal((a as Record<string, unknown>)[name], (b as Record<string, unknown>)[name]),
  );
}
const quoted = (values: unknown[]) => `(${values.map((v) => JSON.stringify(v)).join(', ')})`;

// Bounds: keyword, what is measured, and how the bound compares.
const BOUNDS: [keyof WebhookSchema, string, (value: any) => number, boolean, string][] = [
  ['minLength', 'string', (s: string) => [...s].length, true, 'must NOT have fewer than %s characters'],
  ['maxLength', 'string', (s: string) => [...s].length, false, 'must NOT have more than %s characters'],
  ['minItems', 'array', (a: unknown[]) => a.length, true, 'must NOT have fewer than %s items'],
  ['maxItems', 'array', (a: unknown[]) => a.length, false, 'must NOT have more than %s items'],
  ['maxProperties', 'object', (o: object) => Object.keys(o).length, false, 'must NOT have more than %s properties'],
  ['minimum', 'number', (n: number) => n, true, 'must be >= %s'],
  ['maximum', 'number', (n: number) => n, false, 'must be <= %s'],
];

/**
 * A schema made ready once: every field present (one object shape, so the
 * checks below stay fast over thousands of entries), references resolved,
 * properties as a list, the pattern compiled.
 */
interface Node {
  schema: WebhookSchema;
  /** The `false` schema: no value keeps it. */
  never: boolean;
  ref: Node | null;
  types: string[] | null;
  hasConst: boolean;
  enum: unknown[] | null;
  bounds: typeof BOUNDS;
  format: ((text: string) => boolean) | null;
  pattern: RegExp | null;
  required: string[] | null;
  properties: [string, Node][] | null;
  names: Set<string> | null;
  additional: Node | boolean;
  items: Node | null;
  allOf: Node[] | null;
  anyOf: Node[] | null;
  oneOf: Node[] | null;
  not: Node | null;
  if: Node | null;
  then: Node | null;
  else: Node | null;
}

// The boolean schemas as the objects that behave alike: `true` is the empty
// schema, `false` the empty schema marked `never`.
const TRUE: WebhookSchema = {};
const FALSE: WebhookSchema = {};

const nodes = new WeakMap<WebhookSchema, Node>();
function nodeOf(subschema: Subschema, defs: Defs): Node {
  const schema = subschema === true ? TRUE : subschema === false ? FALSE : subschema;
  let node = nodes.get(schema);
  if (node) return node;
  const sub = (s: Subschema | undefined) => (s === undefined ? null : nodeOf(s, defs));
  const list = (l: Subschema[] | undefined) => (l ? l.map((s) => nodeOf(s, defs)) : null);
  // One literal, every field in the same order: one object shape for all nodes.
  node = {
    schema,
    never: schema === FALSE,
    ref: null,
    types: schema.type === undefined ? null : ([] as string[]).concat(schema.type),
    hasConst: 'const' in schema,
    enum: schema.enum ?? null,
    bounds: BOUNDS.filter(([keyword]) => schema[keyword] !== undefined),
    format: schema.format === undefined ? null : (FORMATS[schema.format] ?? (() => true)),
    pattern: schema.pattern === undefined ? null : new RegExp(schema.pattern, 'u'),
    required: schema.required ?? null,
    properties: null,
    names: schema.properties ? new Set(Object.keys(schema.properties)) : null,
    additional: typeof schema.additionalProperties === 'boolean' ? schema.additionalProperties : true,
    items: null,
    allOf: null,
    anyOf: null,
    oneOf: null,
    not: null,
    if: null,
    then: null,
    else: null,
  };
  nodes.set(schema, node); // before the children: a schema may refer to itself
  node.ref = sub(schema.$ref === undefined ? undefined : defs[schema.$ref]);
  node.properties = schema.properties
    ? Object.entries(schema.properties).map(([name, s]) => [name, nodeOf(s, defs)])
    : null;
  if (typeof schema.additionalProperties === 'object') node.additional = nodeOf(schema.additionalProperties, defs);
  node.items = sub(schema.items);
  node.allOf = list(schema.allOf);
  node.anyOf = list(schema.anyOf);
  node.oneOf = list(schema.oneOf);
  node.not = sub(schema.not);
  node.if = sub(schema.if);
  node.then = sub(schema.then);
  node.else = sub(schema.else);
  return node;
}

/** Every way `value` at `path` breaks `schema`; none when it keeps it. */
export function schemaIssues(value: unknown, schema: Subschema, defs: Defs, path = ''): SchemaIssue[] {
  const node = nodeOf(schema, defs);
  // Most payloads keep their schema: a yes/no pass builds no path and no issue.
  if (keeps(value, node)) return [];
  const issues: SchemaIssue[] = [];
  collect(value, node, path, issues);
  return issues;
}

/** Whether `value` keeps the schema of `node`: what `collect` finds nothing in. */
function keeps(value: unknown, node: Node): boolean {
  const { schema } = node;
  if (node.never) return false;
  const type = typeOf(value);
  if (node.ref && !keeps(value, node.ref)) return false;
  if (node.types && !typeIn(node.types, type)) return false;
  if (node.hasConst && !equal(value, schema.const)) return false;
  if (node.enum && !node.enum.some((v) => equal(value, v))) return false;
  if (node.bounds.length) {
    for (const [keyword, boundType, measure, atLeast] of node.bounds) {
      const bound = schema[keyword] as number;
      if (hasType(value, boundType) && (atLeast ? measure(value) < bound : measure(value) > bound)) return false;
    }
  }
  if (
    type === 'string' &&
    ((node.format && !node.format(value as string)) || (node.pattern && !node.pattern.test(value as string)))
  )
    return false;
  if (type === 'object') {
    const object = value as Record<string, unknown>;
    if (node.required) for (const name of node.required) if (!Object.hasOwn(object, name)) return false;
    if (node.properties)
      for (const [name, child] of node.properties)
        if (Object.hasOwn(object, name) && !keeps(object[name], child)) return false;
    if (node.additional !== true) {
      for (const name of Object.keys(object)) {
        if (!node.names?.has(name) && (node.additional === false || !keeps(object[name], node.additional)))
          return false;
      }
    }
  }
  if (node.items && type === 'array') for (const item of value as unknown[]) if (!keeps(item, node.items)) return false;
  if (node.allOf) for (const n of node.allOf) if (!keeps(value, n)) return false;
  if (node.anyOf && !node.anyOf.some((n) => keeps(value, n))) return false;
  if (node.oneOf && node.oneOf.filter((n) => keeps(value, n)).length !== 1) return false;
  if (node.not && keeps(value, node.not)) return false;
  if (node.if) {
    const branch = keeps(value, node.if) ? node.then : node.else;
    if (branch && !keeps(value, branch)) return false;
  }
  return true;
}

const pointer = (path: string, name: string) =>
  `${path}/${name.includes('~') || name.includes('/') ? name.replace(/~/g, '~0').replace(/\//g, '~1') : name}`;
const issuesOf = (value: unknown, node: Node, path: string) => {
  const issues: SchemaIssue[] = [];
  if (!keeps(value, node)) collect(value, node, path, issues);
  return issues;
};

/** The issues of the closest of several branches, and the combinator's own, unless enough branches fit. */
function branchIssues(value: unknown, branches: Node[], one: boolean, path: string, issues: SchemaIssue[]): void {
  const found = branches.map((n) => issuesOf(value, n, path));
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

/** Adds to `issues` every way `value` at `path` breaks the schema of `node`. */
function collect(value: unknown, node: Node, path: string, issues: SchemaIssue[]): void {
  const { schema } = node;
  if (node.never) {
    issues.push({ path, keyword: 'false schema', message: 'boolean schema is false' });
    return;
  }
  const type = typeOf(value);
  if (node.ref) collect(value, node.ref, path, issues);
  if (node.types && !typeIn(node.types, type))
    issues.push({ path, keyword: 'type', message: `must be ${node.types.join(',')}` });
  if (node.hasConst && !equal(value, schema.const))
    issues.push({ path, keyword: 'const', message: `must be equal to constant ${quoted([schema.const])}` });
  if (node.enum && !node.enum.some((v) => equal(value, v)))
    issues.push({ path, keyword: 'enum', message: `must be equal to one of the allowed values ${quoted(node.enum)}` });
  for (const [keyword, boundType, measure, atLeast, message] of node.bounds) {
    const bound = schema[keyword] as number;
    if (hasType(value, boundType) && (atLeast ? measure(value) < bound : measure(value) > bound))
      issues.push({ path, keyword, message: message.replace('%s', String(bound)) });
  }
  if (type === 'string') {
    if (node.format && !node.format(value as string))
      issues.push({ path, keyword: 'format', message: `must match format "${schema.format}"` });
    if (node.pattern && !node.pattern.test(value as string))
      issues.push({ path, keyword: 'pattern', message: `must match pattern "${schema.pattern}"` });
  }
  if (type === 'object') {
    const object = value as Record<string, unknown>;
    if (node.required)
      for (const name of node.required)
        if (!Object.hasOwn(object, name))
          issues.push({ path, keyword: 'required', message: `must have required property '${name}'` });
    if (node.properties)
      for (const [name, child] of node.properties)
        if (Object.hasOwn(object, name)) collect(object[name], child, pointer(path, name), issues);
    if (node.additional !== true) {
      for (const name of Object.keys(object)) {
        if (node.names?.has(name)) continue;
        if (node.additional === false)
          issues.push({
            path,
            keyword: 'additionalProperties',
            message: `must NOT have additional properties (${name})`,
          });
        else collect(object[name], node.additional, pointer(path, name), issues);
      }
    }
  }
  if (node.items && type === 'array') {
    const items = value as unknown[];
    for (let i = 0; i < items.length; i++) collect(items[i], node.items, `${path}/${i}`, issues);
  }
  if (node.allOf) for (const n of node.allOf) collect(value, n, path, issues);
  if (node.anyOf) branchIssues(value, node.anyOf, false, path, issues);
  if (node.oneOf) branchIssues(value, node.oneOf, true, path, issues);
  if (node.not && issuesOf(value, node.not, path).length === 0)
    issues.push({ path, keyword: 'not', message: 'must NOT be valid' });
  if (node.if) {
    const branch = issuesOf(value, node.if, path).length === 0 ? node.then : node.else;
    const before = issues.length;
    if (branch) collect(value, branch, path, issues);
    if (issues.length > before)
      issues.push({ path, keyword: 'if', message: `must match "${branch === node.then ? 'then' : 'else'}" schema` });
  }
}
