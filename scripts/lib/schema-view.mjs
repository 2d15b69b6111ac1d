// @ts-check
// One view of a JSON Schema for the contract diff (scripts/lib/schema-diff.mjs):
// `$ref`s resolved, `allOf` merged, the nullable idioms folded into one, each
// keyword sorted into compared, annotation or without a rule (`unknown`); and
// a canonical text of a schema's content, so that `$ref` and inline schemas,
// and reordered alternatives, compare equal.

/** A list of names written as one line of words. */
export const words = (/** @type {string} */ list) => list.split(' ');
const ANNOTATIONS = new Set(
  words(
    'description title summary examples example $comment externalDocs xml deprecated $schema $id $anchor $dynamicAnchor $defs definitions',
  ),
);
export const LOWER = words('minimum exclusiveMinimum minLength minItems minProperties minContains');
export const UPPER = words('maximum exclusiveMaximum maxLength maxItems maxProperties maxContains');
// The keywords with a rule of their own (scripts/lib/schema-diff.mjs); any other is `unknown`.
const HANDLED = new Set([
  ...LOWER,
  ...UPPER,
  ...words('$ref type nullable enum const format pattern multipleOf uniqueItems properties required'),
  ...words('additionalProperties unevaluatedProperties patternProperties propertyNames dependentRequired'),
  ...words('dependentSchemas items prefixItems contains not if then else allOf oneOf anyOf discriminator'),
  ...words('readOnly writeOnly default'),
]);
export const MAX_DEPTH = 64;

/**
 * Documents and schemas are walked as the JSON they are, as biome.jsonc allows.
 * @typedef {any} Json
 * @typedef {Record<string, any>} View
 */
export const isAnnotation = (/** @type {string} */ key) => ANNOTATIONS.has(key) || key.startsWith('x-');
// `deprecated` accepts the same values, but the diff tells partners of it: the canonical text keeps it.
const leftOutOfText = (/** @type {string} */ key) => isAnnotation(key) && key !== 'deprecated';

const decode = (/** @type {string} */ s) => {
  try {
    return decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    return s;
  }
};

/** @type {(doc: Json, node: Json) => Json} Resolves a local `$ref` (and chains of them); siblings are dropped. */
export function deref(doc, node) {
  let current = node;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    if (!current.$ref.startsWith('#/') || hops > 32) return {};
    current = current.$ref
      .slice(2)
      .split('/')
      .map(decode)
      .reduce((/** @type {Json} */ at, /** @type {string} */ key) => at?.[key], doc);
  }
  return current ?? {};
}

export const refName = (/** @type {Json} */ node) =>
  typeof node?.$ref === 'string' ? node.$ref.split('/').pop() : null;
/** @type {(node: Json) => Json} */
const asSchema = (node) => (node === true || node == null ? {} : node === false ? { not: {} } : node);
const sortedJson = (/** @type {Json} */ value) =>
  JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((key) => [key, v[key]]),
        )
      : v,
  );

/**
 * A canonical text of a schema's resolved content: `$ref`s inlined (a cycle
 * becomes its name), annotations left out, sets sorted. Equal texts accept
 * the same values. (No cache: it would save 0.2 s a diff, which nobody waits on.)
 * @type {(doc: Json, node: Json) => string}
 */
export function fingerprint(doc, node) {
  /** @type {Set<string>} */
  let seen = new Set();
  /** @type {(n: Json, d: number) => Json} */
  const plain = (n, d) => {
    if (n === true || n === false || n === null || typeof n !== 'object') return n;
    if (Array.isArray(n)) return n.map((x) => plain(x, d + 1));
    if (d > MAX_DEPTH) return '…';
    let own = n;
    if (typeof n.$ref === 'string') {
      if (seen.has(n.$ref)) return { $cycle: n.$ref };
      seen = new Set(seen).add(n.$ref);
      const { $ref, ...siblings } = n;
      const extra = Object.keys(siblings).filter((k) => !isAnnotation(k));
      own = extra.length ? { allOf: [deref(doc, n), siblings] } : deref(doc, n);
      // A use of a named schema marked deprecated beside its `$ref` is deprecated there only.
      if (!extra.length && siblings.deprecated === true) own = { ...own, deprecated: true };
    }
    // Keys go in sorted order here, so the text needs no second sorting pass.
    /** @type {Record<string, Json>} */
    const out = {};
    for (const k of Object.keys(own).sort()) {
      const v = own[k];
      if (leftOutOfText(k) || (k === 'deprecated' && v !== true)) continue;
      if (k === 'properties' || k === 'patternProperties' || k === 'dependentSchemas' || k === '$defs') {
        out[k] = Object.fromEntries(
          Object.keys(v ?? {})
            .sort()
            .map((name) => [name, plain(v[name], d + 1)]),
        );
      } else if (['required', 'type', 'enum'].includes(k) && Array.isArray(v)) {
        out[k] = v.map((x) => JSON.stringify(x)).sort();
      } else if (['oneOf', 'anyOf', 'allOf'].includes(k) && Array.isArray(v)) {
        out[k] = v.map((x) => JSON.stringify(plain(x, d + 1))).sort();
      } else out[k] = plain(v, d + 1);
    }
    return out;
  };
  return JSON.stringify(plain(node, 0));
}

// How a view keeps the keywords whose every occurrence applies (allOf merges them):
// lists of subschemas, names mapped to lists of subschemas, flags set by any.
const LISTS = words('propertyNames contains not conditionals alternatives');
const LIST_MAPS = words('properties patternProperties dependentSchemas');
const FLAGS = words('uniqueItems readOnly writeOnly deprecated');
// `false` (accepts nothing) or a subschema; undefined when anything goes.
const CLOSABLE = words('additionalProperties unevaluatedProperties items');

/** @returns {View} */
const emptyView = () => ({
  types: null,
  enum: null,
  bounds: {},
  format: undefined,
  patterns: new Set(),
  multipleOf: undefined,
  required: new Set(),
  dependentRequired: new Map(),
  prefixItems: [],
  deprecatedUse: false,
  default: undefined,
  unknown: new Map(),
  ref: null,
  ...Object.fromEntries(LISTS.map((k) => [k, []])),
  ...Object.fromEntries(LIST_MAPS.map((k) => [k, new Map()])),
  ...Object.fromEntries(FLAGS.map((k) => [k, false])),
});

/** @type {(a: Set<unknown> | null, b: Set<unknown> | null) => Set<unknown> | null} */
const intersect = (a, b) => (a === null ? b : b === null ? a : new Set([...a].filter((x) => b.has(x))));
/** @type {(a: Map<string, unknown> | null, b: Map<string, unknown> | null) => Map<string, unknown> | null} */
const intersectMap = (a, b) => (a === null ? b : b === null ? a : new Map([...a].filter(([k]) => b.has(k))));
const isNullSchema = (/** @type {Json} */ doc, /** @type {Json} */ node) => {
  const s = deref(doc, node);
  const keys = Object.keys(s).filter((k) => !isAnnotation(k));
  return (
    keys.length === 1 && (s.type === 'null' || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'null'))
  );
};

/** @type {(view: View, other: View) => void} Folds `other` into `view` as if both applied (allOf). */
function merge(view, other) {
  view.types = intersect(view.types, other.types);
  view.enum = intersectMap(view.enum, other.enum);
  for (const [k, v] of Object.entries(other.bounds)) {
    view.bounds[k] = k in view.bounds ? (LOWER.includes(k) ? Math.max : Math.min)(view.bounds[k], v) : v;
  }
  if (other.format !== undefined)
    view.format =
      view.format === undefined || view.format === other.format ? other.format : `${view.format}&${other.format}`;
  for (const p of other.patterns) view.patterns.add(p);
  if (other.multipleOf !== undefined)
    view.multipleOf = view.multipleOf === undefined ? other.multipleOf : view.multipleOf * other.multipleOf;
  for (const r of other.required) view.required.add(r);
  for (const k of CLOSABLE) if (other[k] === false || view[k] === undefined) view[k] = other[k];
  for (const [k, names] of other.dependentRequired)
    view.dependentRequired.set(k, new Set([...(view.dependentRequired.get(k) ?? []), ...names]));
  other.prefixItems.forEach((/** @type {Json[]} */ subs, /** @type {number} */ i) => {
    view.prefixItems[i] = [...(view.prefixItems[i] ?? []), ...subs];
  });
  for (const k of LISTS) view[k].push(...other[k]);
  for (const k of LIST_MAPS)
    for (const [name, subs] of other[k]) view[k].set(name, [...(view[k].get(name) ?? []), ...subs]);
  for (const k of FLAGS) view[k] ||= other[k];
  view.default ??= other.default;
  for (const [k, v] of other.unknown) view.unknown.set(k, view.unknown.has(k) ? `${view.unknown.get(k)}&${v}` : v);
}

// `{not: {}}` (or `{not: true}`) is the schema spelling of `false`.
const acceptsNothing = (/** @type {Json} */ v) =>
  typeof v === 'object' &&
  v !== null &&
  Object.keys(v).length === 1 &&
  (v.not === true || (typeof v.not === 'object' && v.not !== null && !Object.keys(v.not).length));

/**
 * One view of a schema: `$ref`s resolved, `allOf` (and a lone alternative) merged, the nullable idiom folded in.
 * @type {(doc: Json, rawNode: Json, depth?: number) => View}
 */
export function flatten(doc, rawNode, depth = 0) {
  const node = asSchema(rawNode);
  const view = emptyView();
  if (depth > MAX_DEPTH) return view;
  if (typeof node.$ref === 'string') {
    const { $ref, ...siblings } = node;
    const target = flatten(doc, deref(doc, { $ref }), depth + 1);
    // With siblings the result is no longer the named schema alone.
    if (Object.keys(siblings).some((k) => !isAnnotation(k))) merge(target, flatten(doc, siblings, depth + 1));
    else target.ref = refName(node);
    // `deprecated` beside the `$ref` deprecates this use of the named schema, not the schema.
    if (siblings.deprecated === true && !target.deprecated) {
      target.deprecated = true;
      target.deprecatedUse = true;
    }
    return target;
  }
  const s = node;
  if (s.type !== undefined) view.types = new Set([].concat(s.type));
  if (s.nullable === true && view.types) view.types.add('null');
  const values = s.enum ?? ('const' in s ? [s.const] : null);
  if (values) view.enum = new Map(values.map((/** @type {Json} */ v) => [JSON.stringify(v), v]));
  if (s.enum && 'const' in s) view.enum = intersectMap(view.enum, new Map([[JSON.stringify(s.const), s.const]]));
  if (s.nullable === true && view.enum) view.enum.set('null', null);
  for (const k of [...LOWER, ...UPPER]) {
    if (typeof s[k] === 'number') view.bounds[k] = s[k];
    else if (s[k] !== undefined) view.unknown.set(k, JSON.stringify(s[k])); // 3.0's boolean exclusive*
  }
  if (s.format !== undefined) view.format = String(s.format);
  if (s.pattern !== undefined) view.patterns.add(String(s.pattern));
  if (typeof s.multipleOf === 'number') view.multipleOf = s.multipleOf;
  for (const k of FLAGS) view[k] = s[k] === true;
  for (const k of LIST_MAPS) for (const [name, sub] of Object.entries(s[k] ?? {})) view[k].set(name, [sub]);
  for (const r of s.required ?? []) view.required.add(r);
  for (const k of CLOSABLE) {
    const v = s[k];
    view[k] =
      v === false || acceptsNothing(v)
        ? false
        : v === undefined || v === true || (typeof v === 'object' && !Object.keys(v).length)
          ? undefined
          : v;
  }
  // `additionalProperties: false` beside no properties and no patternProperties
  // accepts only the empty object, which is what `maxProperties: 0` says: the
  // two spellings compare as one, so moving between them is no change.
  if (
    view.additionalProperties === false &&
    !Object.keys(s.properties ?? {}).length &&
    !Object.keys(s.patternProperties ?? {}).length
  ) {
    view.additionalProperties = undefined;
    view.bounds.maxProperties = 0;
  }
  for (const [k, names] of Object.entries(s.dependentRequired ?? {})) view.dependentRequired.set(k, new Set(names));
  (s.prefixItems ?? []).forEach((/** @type {Json} */ sub, /** @type {number} */ i) => {
    view.prefixItems[i] = [sub];
  });
  for (const k of ['propertyNames', 'contains', 'not']) if (s[k] !== undefined) view[k].push(s[k]);
  if (s.if !== undefined || s.then !== undefined || s.else !== undefined)
    view.conditionals.push({ if: s.if, then: s.then, else: s.else });
  if ('default' in s) view.default = JSON.stringify(s.default);
  for (const [k, v] of Object.entries(s)) if (!HANDLED.has(k) && !isAnnotation(k)) view.unknown.set(k, sortedJson(v));

  for (const member of s.allOf ?? []) merge(view, flatten(doc, member, depth + 1));
  for (const kind of ['oneOf', 'anyOf']) {
    if (!Array.isArray(s[kind])) continue;
    let list = s[kind];
    // The nullable idiom: X or null, where nothing outside the alternatives constrains the type.
    const nullable =
      list.length === 2 && list.some((x) => isNullSchema(doc, x)) && view.types === null && view.enum === null;
    if (nullable) list = list.filter((x) => !isNullSchema(doc, x));
    if (list.length === 1) {
      const only = flatten(doc, list[0], depth + 1);
      if (nullable) {
        if (only.types) only.types.add('null');
        if (only.enum) only.enum.set('null', null);
      }
      only.ref = null;
      merge(view, only);
    } else view.alternatives.push({ kind, list, discriminator: s.discriminator });
  }
  if (s.discriminator && !view.alternatives.length) view.unknown.set('discriminator', sortedJson(s.discriminator));
  return view;
}
