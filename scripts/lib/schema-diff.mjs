// Compares two JSON Schemas (OpenAPI 3.1's dialect; 3.0's `nullable` too) by
// what they accept, for the contract diff (scripts/lib/contract-diff.mjs).
//
// Every keyword is either compared by direction, ignored as an annotation, or
// reported for review: a keyword this module has no rule for ("unknown")
// never passes unseen. In the direction `input` (what a consumer sends) a
// narrowing breaks; in `output` (what it receives) a widening breaks.
//
//   keyword                                   | rule
//   ------------------------------------------|-----------------------------
//   type, nullable, enum, const               | by direction (integer ⊂ number)
//   min*/max*/exclusive*, min/maxContains     | by direction
//   multipleOf                                | by direction (4 ⊂ 2); other → both
//   format                                    | added/removed by direction;
//                                             |   int32→int64, float→double… widen;
//                                             |   other pairs → review
//   pattern                                   | added/removed by direction; changed → review
//   uniqueItems, contains, dependentRequired, | by direction
//   dependentSchemas, propertyNames, not (its  |
//   schema compared in the other direction),  |
//   if/then/else (a new condition narrows)    |
//   properties, required, additional-/        | fields as the contract table says;
//   unevaluatedProperties, items, prefixItems | closing narrows, opening is an addition
//   patternProperties                         | same pattern: compared; other → review
//   oneOf/anyOf                               | alternatives matched by content
//   discriminator                             | property renamed → breaking; added/
//                                             |   removed → review; mapping by direction
//   readOnly / writeOnly added                | breaks input / output
//   default                                   | changed → breaking; removed → review;
//                                             |   added → fine (DECISIONS.md D3)
//   $ref with siblings                        | the siblings apply too (allOf)
//   anything else (contentMediaType, …)       | changed → review
//
// The nullable idioms `type: [X, 'null']`, `nullable: true` and
// `anyOf|oneOf: [X, {type: 'null'}]` are one thing; `$ref` and inline compare
// by resolved content.

export const ANNOTATIONS = new Set([
  'description', 'title', 'summary', 'examples', 'example', '$comment', 'externalDocs', 'xml', 'deprecated',
  '$schema', '$id', '$anchor', '$dynamicAnchor', '$defs', 'definitions',
]);
const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];
const HANDLED = new Set([
  ...LOWER, ...UPPER, '$ref', 'type', 'nullable', 'enum', 'const', 'format', 'pattern', 'multipleOf', 'uniqueItems',
  'properties', 'required', 'additionalProperties', 'unevaluatedProperties', 'patternProperties', 'propertyNames',
  'dependentRequired', 'dependentSchemas', 'items', 'prefixItems', 'contains', 'not', 'if', 'then', 'else',
  'allOf', 'oneOf', 'anyOf', 'discriminator', 'readOnly', 'writeOnly', 'default',
]);
// format → the formats that accept every value it accepts, and more.
const WIDER_FORMATS = {
  int32: ['int64'], float: ['double'], email: ['idn-email'], hostname: ['idn-hostname'],
  uri: ['uri-reference', 'iri', 'iri-reference'], 'uri-reference': ['iri-reference'], iri: ['iri-reference'],
};
const MAX_DEPTH = 64;
export const isAnnotation = (key) => ANNOTATIONS.has(key) || key.startsWith('x-');

const decode = (s) => {
  try {
    return decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    return s;
  }
};

/** Resolves a local `$ref` (and chains of them) inside a document; siblings are dropped. */
export function deref(doc, node) {
  let current = node;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    if (!current.$ref.startsWith('#/') || hops > 32) return {};
    current = current.$ref.slice(2).split('/').map(decode).reduce((at, key) => at?.[key], doc);
  }
  return current ?? {};
}

const refName = (node) => (typeof node?.$ref === 'string' ? node.$ref.split('/').pop() : null);
const asSchema = (node) => (node === true || node == null ? {} : node === false ? { not: {} } : node);
const sortedJson = (value) => JSON.stringify(value, (k, v) => (v && typeof v === 'object' && !Array.isArray(v)
  ? Object.fromEntries(Object.keys(v).sort().map((key) => [key, v[key]])) : v));

/**
 * A canonical text of a schema's resolved content: `$ref`s inlined (a cycle
 * becomes its name), annotations left out, sets sorted. Equal texts accept
 * the same values.
 */
export function fingerprint(doc, node, seen = new Set(), depth = 0) {
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
    }
    const out = {};
    for (const [k, v] of Object.entries(own)) {
      if (isAnnotation(k)) continue;
      if (k === 'properties' || k === 'patternProperties' || k === 'dependentSchemas' || k === '$defs') {
        out[k] = Object.fromEntries(Object.entries(v ?? {}).map(([name, s]) => [name, plain(s, d + 1)]));
      } else if (['required', 'type', 'enum'].includes(k) && Array.isArray(v)) {
        out[k] = v.map((x) => JSON.stringify(x)).sort();
      } else if (['oneOf', 'anyOf', 'allOf'].includes(k) && Array.isArray(v)) {
        out[k] = v.map((x) => sortedJson(plain(x, d + 1))).sort();
      } else out[k] = plain(v, d + 1);
    }
    return out;
  };
  return sortedJson(plain(node, depth));
}

const emptyView = () => ({
  types: null, enum: null, bounds: {}, format: undefined, patterns: new Set(), multipleOf: undefined, uniqueItems: false,
  properties: new Map(), required: new Set(), additionalProperties: undefined, unevaluatedProperties: undefined,
  patternProperties: new Map(), propertyNames: [], dependentRequired: new Map(), dependentSchemas: new Map(),
  items: undefined, prefixItems: [], contains: [], not: [], conditionals: [], alternatives: [],
  readOnly: false, writeOnly: false, deprecated: false, default: undefined, unknown: new Map(), ref: null,
});

const intersect = (a, b) => (a === null ? b : b === null ? a : new Set([...a].filter((x) => b.has(x))));
const intersectMap = (a, b) => (a === null ? b : b === null ? a : new Map([...a].filter(([k]) => b.has(k))));
const isNullSchema = (doc, node) => {
  const s = deref(doc, node);
  const keys = Object.keys(s).filter((k) => !isAnnotation(k));
  return keys.length === 1 && (s.type === 'null' || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'null'));
};

/** Folds `other` into `view` as if both applied (allOf). */
function merge(view, other) {
  view.types = intersect(view.types, other.types);
  view.enum = intersectMap(view.enum, other.enum);
  for (const [k, v] of Object.entries(other.bounds)) {
    view.bounds[k] = k in view.bounds ? (LOWER.includes(k) ? Math.max : Math.min)(view.bounds[k], v) : v;
  }
  if (other.format !== undefined) view.format = view.format === undefined || view.format === other.format ? other.format : `${view.format}&${other.format}`;
  for (const p of other.patterns) view.patterns.add(p);
  if (other.multipleOf !== undefined) view.multipleOf = view.multipleOf === undefined ? other.multipleOf : view.multipleOf * other.multipleOf;
  view.uniqueItems ||= other.uniqueItems;
  for (const [name, subs] of other.properties) view.properties.set(name, [...(view.properties.get(name) ?? []), ...subs]);
  for (const r of other.required) view.required.add(r);
  for (const k of ['additionalProperties', 'unevaluatedProperties', 'items']) {
    if (other[k] === false || view[k] === undefined) view[k] = other[k];
  }
  for (const [k, subs] of other.patternProperties) view.patternProperties.set(k, [...(view.patternProperties.get(k) ?? []), ...subs]);
  for (const [k, names] of other.dependentRequired) view.dependentRequired.set(k, new Set([...(view.dependentRequired.get(k) ?? []), ...names]));
  for (const [k, subs] of other.dependentSchemas) view.dependentSchemas.set(k, [...(view.dependentSchemas.get(k) ?? []), ...subs]);
  other.prefixItems.forEach((subs, i) => (view.prefixItems[i] = [...(view.prefixItems[i] ?? []), ...subs]));
  for (const k of ['propertyNames', 'contains', 'not', 'conditionals', 'alternatives']) view[k].push(...other[k]);
  view.readOnly ||= other.readOnly;
  view.writeOnly ||= other.writeOnly;
  view.deprecated ||= other.deprecated;
  view.default ??= other.default;
  for (const [k, v] of other.unknown) view.unknown.set(k, view.unknown.has(k) ? `${view.unknown.get(k)}&${v}` : v);
}

/** One view of a schema: `$ref`s resolved, `allOf` (and a lone alternative) merged, the nullable idiom folded in. */
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
    return target;
  }
  const s = node;
  if (s.type !== undefined) view.types = new Set([].concat(s.type));
  if (s.nullable === true && view.types) view.types.add('null');
  const values = s.enum ?? ('const' in s ? [s.const] : null);
  if (values) view.enum = new Map(values.map((v) => [JSON.stringify(v), v]));
  if (s.enum && 'const' in s) view.enum = intersectMap(view.enum, new Map([[JSON.stringify(s.const), s.const]]));
  if (s.nullable === true && view.enum) view.enum.set('null', null);
  for (const k of [...LOWER, ...UPPER]) {
    if (typeof s[k] === 'number') view.bounds[k] = s[k];
    else if (s[k] !== undefined) view.unknown.set(k, JSON.stringify(s[k])); // 3.0's boolean exclusive*
  }
  if (s.format !== undefined) view.format = String(s.format);
  if (s.pattern !== undefined) view.patterns.add(String(s.pattern));
  if (typeof s.multipleOf === 'number') view.multipleOf = s.multipleOf;
  view.uniqueItems = s.uniqueItems === true;
  for (const [name, sub] of Object.entries(s.properties ?? {})) view.properties.set(name, [sub]);
  for (const r of s.required ?? []) view.required.add(r);
  for (const k of ['additionalProperties', 'unevaluatedProperties', 'items']) {
    const v = s[k];
    view[k] = v === false ? false : v === undefined || v === true || (typeof v === 'object' && !Object.keys(v).length) ? undefined : v;
  }
  for (const [k, sub] of Object.entries(s.patternProperties ?? {})) view.patternProperties.set(k, [sub]);
  if (s.propertyNames !== undefined) view.propertyNames.push(s.propertyNames);
  for (const [k, names] of Object.entries(s.dependentRequired ?? {})) view.dependentRequired.set(k, new Set(names));
  for (const [k, sub] of Object.entries(s.dependentSchemas ?? {})) view.dependentSchemas.set(k, [sub]);
  (s.prefixItems ?? []).forEach((sub, i) => (view.prefixItems[i] = [sub]));
  if (s.contains !== undefined) view.contains.push(s.contains);
  if (s.not !== undefined) view.not.push(s.not);
  if (s.if !== undefined || s.then !== undefined || s.else !== undefined) view.conditionals.push({ if: s.if, then: s.then, else: s.else });
  view.readOnly = s.readOnly === true;
  view.writeOnly = s.writeOnly === true;
  view.deprecated = s.deprecated === true;
  if ('default' in s) view.default = JSON.stringify(s.default);
  for (const [k, v] of Object.entries(s)) if (!HANDLED.has(k) && !isAnnotation(k)) view.unknown.set(k, sortedJson(v));

  for (const member of s.allOf ?? []) merge(view, flatten(doc, member, depth + 1));
  for (const kind of ['oneOf', 'anyOf']) {
    if (!Array.isArray(s[kind])) continue;
    let list = s[kind];
    // The nullable idiom: X or null, where nothing outside the alternatives constrains the type.
    const nullable = list.length === 2 && list.some((x) => isNullSchema(doc, x)) && view.types === null && view.enum === null;
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

const merged = (subs) => (subs.length === 1 ? subs[0] : { allOf: subs });
const show = (set) => [...set].join(' | ');

/**
 * Compares base and head schemas in a direction and reports each difference
 * through `ctx.report(verdict, kind, detail, about)`, verdict 'breaking',
 * 'review' or 'ok'. `where` names the place in the operation ("response 200"),
 * `field` the path inside the schema; `origin` the nearest named schema.
 */
export function compareSchema(ctx, baseNode, headNode, dir, where, field = '', depth = 0, refs = new Set(), origin = null) {
  if ((baseNode === undefined && headNode === undefined) || depth > MAX_DEPTH) return;
  baseNode ??= {};
  headNode ??= {};
  const pair = `${baseNode?.$ref ?? ''}|${headNode?.$ref ?? ''}|${dir}`;
  if (pair !== `||${dir}`) {
    if (refs.has(pair)) return;
    refs = new Set(refs).add(pair);
  }
  const { base, head } = ctx;
  if (fingerprint(base, baseNode) === fingerprint(head, headNode)) return;
  const b = flatten(base, baseNode);
  const h = flatten(head, headNode);
  const name = h.ref ?? b.ref;
  if (name) origin = { name, at: field };
  const at = field ? `${where}: field ${field}` : where;
  const isInput = dir === 'input';
  // `about` names the change by the shared schema it is in, so that a report
  // can list every operation one change reaches.
  const relative = (f) => (origin ? f.slice(origin.at.length).replace(/^\./, '') : f);
  const sub = (n) => (field ? `${field}.${n}` : n);
  // With `name`, the text is about that property: "field a.b removed".
  const say = (verdict, kind, text, name) => {
    const f = name === undefined ? field : sub(name);
    const rel = relative(f);
    const [detail, inner] = name === undefined
      ? [`${at}: ${text}`, rel ? `: field ${rel}: ${text}` : `: ${text}`]
      : [`${where}: field ${f} ${text}`, `: field ${rel} ${text}`];
    ctx.report(verdict, kind, detail, origin ? `schema ${origin.name}${inner}` : detail);
  };
  // A narrowing (fewer values valid) breaks input; a widening breaks output.
  const narrowed = (kind, text, name) => say(isInput ? 'breaking' : 'ok', kind, text, name);
  const widened = (kind, text, name) => say(isInput ? 'ok' : 'breaking', kind, text, name);
  const deeper = (bn, hn, f, d = dir) => compareSchema(ctx, bn, hn, d, where, f, depth + 1, refs, origin);
  // A subschema on one side only: its constraint was added (narrows) or removed (widens).
  const added = (was, now, f, what) => {
    if (was && now) deeper(was, now, f);
    else if (now) narrowed(`${what.split(/[ []/)[0]}-added`, `${what} added`);
    else if (was) widened(`${what.split(/[ []/)[0]}-removed`, `${what} removed`);
  };
  const flip = dir === 'input' ? 'output' : 'input';

  // Types; integer is a kind of number.
  const hasAlternatives = b.alternatives.length || h.alternatives.length;
  if (b.types && h.types) {
    const covers = (set, t) => set.has(t) || (t === 'integer' && set.has('number'));
    const lost = [...b.types].filter((t) => !covers(h.types, t));
    const gained = [...h.types].filter((t) => !covers(b.types, t));
    if (lost.length && gained.length) {
      say('breaking', 'type-changed', `type ${show(b.types)} → ${show(h.types)}`);
      return;
    }
    if (lost.length) narrowed('type-narrowed', `type ${show(b.types)} → ${show(h.types)}`);
    if (gained.length) widened('type-widened', `type ${show(b.types)} → ${show(h.types)}`);
  } else if (!b.types && h.types && !hasAlternatives) narrowed('type-narrowed', `type ${show(h.types)} added`);
  else if (b.types && !h.types && !hasAlternatives) widened('type-widened', `type ${show(b.types)} dropped`);

  // Enums (const is an enum of one value).
  if (b.enum && h.enum) {
    const removed = [...b.enum.keys()].filter((v) => !h.enum.has(v));
    const added = [...h.enum.keys()].filter((v) => !b.enum.has(v));
    if (removed.length) narrowed('enum-values-removed', `enum values removed: ${removed.join(', ')}`);
    if (added.length) widened('enum-values-added', `enum values added: ${added.join(', ')}`);
  } else if (!b.enum && h.enum) narrowed('enum-added', `restricted to ${[...h.enum.keys()].join(', ')}`);
  else if (b.enum && !h.enum) widened('enum-dropped', `no longer restricted to ${[...b.enum.keys()].join(', ')}`);

  // Bounds.
  for (const k of [...LOWER, ...UPPER]) {
    const [was, now] = [b.bounds[k], h.bounds[k]];
    if (was === now) continue;
    const tighter = was === undefined || (now !== undefined && (LOWER.includes(k) ? now > was : now < was));
    (tighter ? narrowed : widened)(tighter ? 'bound-narrowed' : 'bound-widened', `${k} ${was ?? 'none'} → ${now ?? 'none'}`);
  }
  if (b.multipleOf !== h.multipleOf) {
    const text = `multipleOf ${b.multipleOf ?? 'none'} → ${h.multipleOf ?? 'none'}`;
    const divides = (x, y) => Math.abs(x / y - Math.round(x / y)) < 1e-9; // x is a multiple of y
    if (b.multipleOf === undefined || (h.multipleOf !== undefined && divides(h.multipleOf, b.multipleOf))) narrowed('bound-narrowed', text);
    else if (h.multipleOf === undefined || divides(b.multipleOf, h.multipleOf)) widened('bound-widened', text);
    else say('breaking', 'constraint-changed', text);
  }
  if (b.uniqueItems !== h.uniqueItems) (h.uniqueItems ? narrowed : widened)(h.uniqueItems ? 'constraint-added' : 'constraint-removed', `uniqueItems ${b.uniqueItems} → ${h.uniqueItems}`);
  if (b.format !== h.format) {
    const text = `format ${b.format ?? 'none'} → ${h.format ?? 'none'}`;
    if (b.format === undefined) narrowed('constraint-added', text);
    else if (h.format === undefined || WIDER_FORMATS[b.format]?.includes(h.format)) widened('format-widened', text);
    else if (WIDER_FORMATS[h.format]?.includes(b.format)) narrowed('format-narrowed', text);
    else say('review', 'format-changed', `${text} (how the two relate is not known)`);
  }
  const patternsAdded = [...h.patterns].filter((p) => !b.patterns.has(p));
  const patternsRemoved = [...b.patterns].filter((p) => !h.patterns.has(p));
  if (patternsAdded.length && patternsRemoved.length) say('review', 'pattern-changed', `pattern ${patternsRemoved.join(' & ')} → ${patternsAdded.join(' & ')} (whether it accepts more or less is not known)`);
  else if (patternsAdded.length) narrowed('constraint-added', `pattern ${patternsAdded.join(' & ')} added`);
  else if (patternsRemoved.length) widened('constraint-removed', `pattern ${patternsRemoved.join(' & ')} removed`);

  // Annotations that change what a side may send or rely on.
  if (!b.readOnly && h.readOnly) say(isInput ? 'breaking' : 'ok', 'read-only-added', 'became readOnly (no longer sent in requests)');
  if (!b.writeOnly && h.writeOnly) say(isInput ? 'ok' : 'breaking', 'write-only-added', 'became writeOnly (no longer in answers)');
  if (b.readOnly && !h.readOnly) say('ok', 'read-only-removed', 'no longer readOnly');
  if (b.writeOnly && !h.writeOnly) say('ok', 'write-only-removed', 'no longer writeOnly');
  if (!b.deprecated && h.deprecated) say('ok', 'deprecated', 'deprecated');
  if (b.default !== h.default) {
    const text = `default ${b.default ?? 'none'} → ${h.default ?? 'none'}`;
    if (b.default === undefined) say('ok', 'default-added', text);
    else if (h.default === undefined) say('review', 'default-removed', `${text} (is what an absent value means still the same?)`);
    else say('breaking', 'default-changed', `${text} (an absent value now means something else)`);
  }
  for (const k of new Set([...b.unknown.keys(), ...h.unknown.keys()])) {
    if (b.unknown.get(k) !== h.unknown.get(k)) say('review', 'keyword-changed', `${k} ${b.unknown.get(k) ?? 'none'} → ${h.unknown.get(k) ?? 'none'}`);
  }

  compareObjects(ctx, { b, h, say, narrowed, widened, sub, deeper, added, isInput });

  // Arrays.
  if (b.items === false || h.items === false) {
    if (b.items !== h.items) (h.items === false ? narrowed : widened)(h.items === false ? 'items-closed' : 'items-opened', h.items === false ? 'no items beyond prefixItems' : 'items beyond prefixItems allowed');
  } else added(b.items, h.items, `${field}[]`, 'items');
  for (let i = 0; i < Math.max(b.prefixItems.length, h.prefixItems.length); i++) {
    added(b.prefixItems[i] && merged(b.prefixItems[i]), h.prefixItems[i] && merged(h.prefixItems[i]), `${field}[${i}]`, `prefixItems[${i}]`);
  }
  if (!b.contains.length && h.contains.length) narrowed('contains-added', 'must contain a matching item');
  else if (b.contains.length && !h.contains.length) widened('contains-removed', 'no longer must contain a matching item');
  else if (b.contains.length) deeper(merged(b.contains), merged(h.contains), `${field}[contains]`);

  // not: its schema is compared the other way round.
  pairUp(ctx, b.not, h.not, (x) => x, {
    removed: () => widened('not-removed', 'a `not` constraint removed'),
    added: () => narrowed('not-added', 'a `not` constraint added'),
    changed: (x, y) => deeper(x, y, field ? `${field}[not]` : '[not]', flip),
  });
  // if/then/else: matched by their condition.
  pairUp(ctx, b.conditionals, h.conditionals, (c) => c.if ?? {}, {
    removed: () => widened('condition-removed', 'an if/then/else condition removed'),
    added: () => narrowed('condition-added', 'an if/then/else condition added'),
    changed: (x, y, sameIf) => {
      if (!sameIf) return say('review', 'condition-changed', 'the `if` of an if/then/else changed');
      deeper(x.then ?? {}, y.then ?? {}, field ? `${field}[then]` : '[then]');
      deeper(x.else ?? {}, y.else ?? {}, field ? `${field}[else]` : '[else]');
    },
  });
  compareAlternatives(ctx, { b, h, baseNode, headNode, say, narrowed, widened, deeper, field });
}

function compareObjects(ctx, { b, h, say, narrowed, widened, sub, deeper, added, isInput }) {
  for (const [name] of b.properties) {
    if (!h.properties.has(name)) say('breaking', 'field-removed', 'removed', name);
  }
  for (const [name, subs] of h.properties) {
    if (!b.properties.has(name)) {
      const required = h.required.has(name);
      say(required && isInput ? 'breaking' : 'ok', required && isInput ? 'field-added-required' : 'field-added', `added${required ? ' (required)' : ' (optional)'}`, name);
      // A name the base accepted under additionalProperties keeps its old schema as the base.
      if (b.additionalProperties && typeof b.additionalProperties === 'object') deeper(b.additionalProperties, merged(subs), sub(name));
      continue;
    }
    if (!b.required.has(name) && h.required.has(name)) narrowed('field-became-required', 'became required', name);
    if (b.required.has(name) && !h.required.has(name)) widened('field-became-optional', 'became optional (may be absent)', name);
    deeper(merged(b.properties.get(name)), merged(subs), sub(name));
  }
  for (const name of h.required) {
    if (!b.required.has(name) && !h.properties.has(name)) narrowed('field-became-required', 'became required', name);
  }
  for (const [name] of b.required.entries()) {
    if (!h.required.has(name) && !b.properties.has(name)) widened('field-became-optional', 'became optional (may be absent)', name);
  }
  for (const k of ['additionalProperties', 'unevaluatedProperties']) {
    const [was, now] = [b[k], h[k]];
    if (was === false && now !== false) say('ok', `${k}-opened`, `${k}: accepts fields it does not declare`);
    else if (was !== false && now === false) narrowed(`${k}-closed`, `${k}: no longer accepts fields it does not declare`);
    else added(was, now, sub('*'), k);
  }
  for (const k of new Set([...b.patternProperties.keys(), ...h.patternProperties.keys()])) {
    const [was, now] = [b.patternProperties.get(k), h.patternProperties.get(k)];
    if (was && now) deeper(merged(was), merged(now), sub(`/${k}/`));
    else say('review', 'pattern-properties-changed', `patternProperties /${k}/ ${was ? 'removed' : 'added'}`);
  }
  added(b.propertyNames.length && merged(b.propertyNames), h.propertyNames.length && merged(h.propertyNames), sub('[name]'), 'propertyNames');
  for (const k of new Set([...b.dependentRequired.keys(), ...h.dependentRequired.keys()])) {
    const [was, now] = [b.dependentRequired.get(k) ?? new Set(), h.dependentRequired.get(k) ?? new Set()];
    const added = [...now].filter((n) => !was.has(n));
    const removed = [...was].filter((n) => !now.has(n));
    if (added.length) narrowed('dependent-required-added', `with ${k}, also requires ${added.join(', ')}`);
    if (removed.length) widened('dependent-required-removed', `with ${k}, no longer requires ${removed.join(', ')}`);
  }
  for (const k of new Set([...b.dependentSchemas.keys(), ...h.dependentSchemas.keys()])) {
    const [was, now] = [b.dependentSchemas.get(k), h.dependentSchemas.get(k)];
    added(was && merged(was), now && merged(now), sub(`[with ${k}]`), `dependentSchemas ${k}`);
  }
}

/** Pairs two lists of schemas by content, then one left on each side; reports the rest. */
function pairUp(ctx, bs, hs, keyOf, on) {
  const bf = bs.map((x) => fingerprint(ctx.base, keyOf(x)));
  const hf = hs.map((x) => fingerprint(ctx.head, keyOf(x)));
  const hUsed = new Set();
  const bLeft = [];
  bs.forEach((x, i) => {
    const j = hf.findIndex((f, k) => !hUsed.has(k) && f === bf[i]);
    if (j < 0) return bLeft.push(i);
    hUsed.add(j);
    on.changed(x, hs[j], true);
  });
  const hLeft = hs.map((_, j) => j).filter((j) => !hUsed.has(j));
  if (bLeft.length === 1 && hLeft.length === 1) return on.changed(bs[bLeft[0]], hs[hLeft[0]], false);
  for (const i of bLeft) on.removed(bs[i]);
  for (const j of hLeft) on.added(hs[j]);
}

const discriminatorValue = (doc, node, property) => {
  if (!property) return null;
  const v = flatten(doc, node).properties.get(property);
  const e = v && flatten(doc, merged(v)).enum;
  return e?.size === 1 ? [...e.keys()][0] : null;
};

function compareAlternatives(ctx, { b, h, baseNode, headNode, say, narrowed, widened, deeper, field }) {
  const [ba, ha] = [b.alternatives, h.alternatives];
  if (!ba.length && !ha.length) return;
  if (ba.length > 1 || ha.length > 1) return say('review', 'alternatives-changed', 'several oneOf/anyOf lists changed');
  // One side without alternatives: the base (or head) as a whole may be one of them.
  const [bl, hl] = [ba[0]?.list ?? [baseNode], ha[0]?.list ?? [headNode]];
  if (!ba.length || !ha.length) {
    const lone = fingerprint(ba.length ? ctx.head : ctx.base, ba.length ? headNode : baseNode);
    const list = ba.length ? bl : hl;
    if (!list.some((x) => fingerprint(ba.length ? ctx.base : ctx.head, x) === lone)) {
      return say('review', 'alternatives-changed', ba.length ? `${ba[0].kind} removed` : `${ha[0].kind} added`);
    }
  } else if (ba[0].kind !== ha[0].kind) {
    (ha[0].kind === 'anyOf' ? widened : narrowed)('alternatives-kind-changed', `${ba[0].kind} → ${ha[0].kind}`);
  }
  const [bd, hd] = [ba[0]?.discriminator, ha[0]?.discriminator];
  if (bd?.propertyName !== hd?.propertyName) {
    if (bd && hd) say('breaking', 'discriminator-changed', `discriminator ${bd.propertyName} → ${hd.propertyName}`);
    else say('review', 'discriminator-changed', `discriminator ${bd ? `${bd.propertyName} removed` : `${hd.propertyName} added`}`);
  } else if (bd && hd) {
    const [bm, hm] = [bd.mapping ?? {}, hd.mapping ?? {}];
    for (const k of Object.keys(bm)) if (!(k in hm)) narrowed('discriminator-mapping-removed', `discriminator value ${k} no longer mapped`);
    for (const k of Object.keys(hm)) {
      if (!(k in bm)) widened('discriminator-mapping-added', `discriminator value ${k} mapped`);
      else if (fingerprint(ctx.base, { $ref: bm[k] }) !== fingerprint(ctx.head, { $ref: hm[k] })) deeper({ $ref: bm[k] }, { $ref: hm[k] }, field);
    }
  }
  // Alternatives: same content, else same name, else same discriminator value, else the last one left.
  const property = hd?.propertyName ?? bd?.propertyName;
  const keys = [
    (doc, x) => fingerprint(doc, x),
    (doc, x) => refName(x),
    (doc, x) => discriminatorValue(doc, x, property),
  ];
  const bLeft = new Set(bl.keys());
  const hLeft = new Set(hl.keys());
  for (const key of keys) {
    for (const i of [...bLeft]) {
      const k = key(ctx.base, bl[i]);
      if (k === null || k === undefined) continue;
      const j = [...hLeft].find((j2) => key(ctx.head, hl[j2]) === k);
      if (j === undefined) continue;
      bLeft.delete(i);
      hLeft.delete(j);
      deeper(bl[i], hl[j], field);
    }
  }
  if (bLeft.size === 1 && hLeft.size === 1) return deeper(bl[[...bLeft][0]], hl[[...hLeft][0]], field);
  const labelOf = (x, i) => refName(x) ?? `#${i + 1}`;
  for (const i of bLeft) narrowed('alternative-removed', `alternative ${labelOf(bl[i], i)} removed`);
  for (const j of hLeft) widened('alternative-added', `alternative ${labelOf(hl[j], j)} added`);
}
