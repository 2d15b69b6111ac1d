// Checks a parsed webhook against the partner document's webhook schemas,
// reduced by scripts/validators.mjs to the keywords that judge a value
// (generated/validators/partner-webhooks.js): a small interpreter instead of
// compiled validators, because the compiled ones weigh about 100 KB
// minified, more than an edge receiver may (openapi/DECISIONS.md P52). It
// judges as Ajv judges the same schemas (JSON Schema 2020-12, all errors):
// test/webhook-checks.test.ts compares the two keyword by keyword.
import type { WebhookSchema } from '../../generated/validators/partner-webhooks.js';
import type { PayloadIssue } from './errors.js';
import { FORMATS } from './formats.js';

/** An issue and the keyword that raised it (the tolerant filters of parse.ts read it). */
export interface SchemaIssue extends PayloadIssue {
  keyword: string;
}

type Defs = Readonly<Record<string, WebhookSchema>>;

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;
const hasType = (value: unknown, type: string) => {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
};
const equal = (a: unknown, b: unknown) => a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));
const quoted = (values: unknown[]) => `(${values.map((v) => JSON.stringify(v)).join(', ')})`;
const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

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

/** Every way `value` at `path` breaks `schema`; none when it keeps it. */
export function schemaIssues(value: unknown, schema: WebhookSchema, defs: Defs, path = ''): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const issue = (keyword: string, message: string, at = path) => issues.push({ path: at, message, keyword });
  const check = (v: unknown, s: WebhookSchema, at = path) => issues.push(...schemaIssues(v, s, defs, at));
  const valid = (s: WebhookSchema) => schemaIssues(value, s, defs, path).length === 0;

  if (schema.$ref) check(value, defs[schema.$ref]);
  const types = schema.type === undefined ? [] : ([] as string[]).concat(schema.type);
  if (types.length && !types.some((t) => hasType(value, t))) issue('type', `must be ${types.join(',')}`);
  if ('const' in schema && !equal(value, schema.const)) issue('const', `must be equal to constant ${quoted([schema.const])}`);
  if (schema.enum && !schema.enum.some((v) => equal(value, v))) issue('enum', `must be equal to one of the allowed values ${quoted(schema.enum)}`);
  for (const [keyword, type, measure, atLeast, message] of BOUNDS) {
    const bound = schema[keyword] as number | undefined;
    if (bound !== undefined && hasType(value, type) && (atLeast ? measure(value) < bound : measure(value) > bound)) issue(keyword, message.replace('%s', String(bound)));
  }
  if (typeof value === 'string') {
    if (schema.format && !FORMATS[schema.format]?.(value)) issue('format', `must match format "${schema.format}"`);
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) issue('pattern', `must match pattern "${schema.pattern}"`);
  }
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!Object.hasOwn(object, name)) issue('required', `must have required property '${name}'`);
    for (const [name, v] of Object.entries(object)) {
      const at = `${path}/${escape(name)}`;
      const own = schema.properties && Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;
      if (own) check(v, own, at);
      else if (schema.additionalProperties === false) issue('additionalProperties', `must NOT have additional properties (${name})`);
      else if (typeof schema.additionalProperties === 'object') check(v, schema.additionalProperties, at);
    }
  }
  if (schema.items && Array.isArray(value)) value.forEach((item, i) => check(item, schema.items!, `${path}/${i}`));
  for (const s of schema.allOf ?? []) check(value, s);
  for (const [keyword, branches] of [['anyOf', schema.anyOf], ['oneOf', schema.oneOf]] as const) {
    if (!branches) continue;
    const found = branches.map((s) => schemaIssues(value, s, defs, path));
    const passing = found.filter((f) => f.length === 0).length;
    if (keyword === 'anyOf' ? passing > 0 : passing === 1) continue;
    // No branch fits: the closest one says what is wrong.
    if (passing === 0) issues.push(...found.reduce((a, b) => (b.length < a.length ? b : a)));
    issue(keyword, keyword === 'anyOf' ? 'must match a schema in anyOf' : 'must match exactly one schema in oneOf');
  }
  if (schema.not && valid(schema.not)) issue('not', 'must NOT be valid');
  if (schema.if) {
    const branch = valid(schema.if) ? 'then' : 'else';
    const before = issues.length;
    if (schema[branch]) check(value, schema[branch]);
    if (issues.length > before) issue('if', `must match "${branch}" schema`);
  }
  return issues;
}
