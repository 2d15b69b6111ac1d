// @ts-check
// Compares two JSON Schemas (OpenAPI 3.1's dialect; 3.0's `nullable` too) by
// what they accept, for the contract diff (scripts/lib/contract-diff.mjs).
// Every keyword is compared by direction (in `input` a narrowing breaks, in
// `output` a widening), ignored as an annotation, or reported for review:
// one with no rule never passes unseen. Where direction alone does not
// decide (a changed pattern or default, formats, discriminators), the rows
// D1-D5 of guides/maintainers-decisions.md do.

import { LOWER, MAX_DEPTH, UPPER, deref, fingerprint, flatten, isAnnotation, refName, words } from './schema-view.mjs';

export { deref, isAnnotation, words };

/**
 * @typedef {import('./schema-view.mjs').Json} Json
 * @typedef {import('./schema-view.mjs').View} View
 * @typedef {'breaking' | 'review' | 'deprecated' | 'ok'} Verdict
 * @typedef {'input' | 'output'} Direction
 * @typedef {{ base: Json, head: Json, report: (verdict: Verdict, kind: string, detail: string, about?: string) => void }} Context
 * @typedef {{ name: string, at: string }} Origin
 * @typedef {(kind: string, text: string, name?: string) => void} Judge
 * @typedef {(bn: Json, hn: Json, f: string, d?: Direction) => void} Deeper
 * @typedef {(was: Json, now: Json, f: string, what: string) => void} Added
 * What the comparison of one pair of schemas hands its parts:
 * @typedef {{
 *   b: View, h: View, baseNode: Json, headNode: Json, field: string, isInput: boolean,
 *   say: (verdict: Verdict, kind: string, text: string, name?: string) => void, narrowed: Judge, widened: Judge, sub: (n: string) => string, deeper: Deeper, added: Added,
 * }} Scope
 */

// format → the formats that accept every value it accepts, and more.
/** @type {Record<string, string[] | undefined>} */
const WIDER_FORMATS = {
  int32: ['int64'],
  float: ['double'],
  email: ['idn-email'],
  hostname: ['idn-hostname'],
  uri: ['uri-reference', 'iri', 'iri-reference'],
  'uri-reference': ['iri-reference'],
  iri: ['iri-reference'],
};
const merged = (/** @type {Json[]} */ subs) => (subs.length === 1 ? subs[0] : { allOf: subs });
const show = (/** @type {Set<string>} */ set) => [...set].join(' | ');
const jsonType = (/** @type {unknown} */ v) =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;

/**
 * Reports each difference of two schemas through `ctx.report`. `where` names
 * the place in the operation ("response 200"); inside the schema, `field` is
 * the path, `origin` the nearest named schema.
 * @type {(ctx: Context, baseNode: Json, headNode: Json, dir: Direction, where: string,
 *   inside?: { field?: string, depth?: number, refs?: Set<string>, origin?: Origin | null }) => void}
 */
export function compareSchema(ctx, baseNode, headNode, dir, where, inside = {}) {
  const { field = '', depth = 0 } = inside;
  let { refs = new Set(), origin = null } = inside;
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
  const outer = origin;
  if (name) origin = { name, at: field };
  const isInput = dir === 'input';
  const sub = (/** @type {string} */ n) => (field ? `${field}.${n}` : n);
  // `about` names the change by the shared schema it is in (`o`), so that a
  // report can list every operation one change reaches; `joined` says the
  // text of the field itself ("field a deprecated"), not after a colon.
  /** @type {(verdict: Verdict, kind: string, text: string, name?: string, o?: Origin | null, joined?: boolean) => void} */
  const say = (verdict, kind, text, name, o = origin, joined = name !== undefined) => {
    const f = name === undefined ? field : sub(name);
    const rel = o ? f.slice(o.at.length).replace(/^\./, '') : f;
    const [detail, inner] = joined
      ? [f ? `${where}: field ${f} ${text}` : `${where}: ${text}`, rel ? `: field ${rel} ${text}` : ` ${text}`]
      : [f ? `${where}: field ${f}: ${text}` : `${where}: ${text}`, rel ? `: field ${rel}: ${text}` : `: ${text}`];
    ctx.report(verdict, kind, detail, o ? `schema ${o.name}${inner}` : detail);
  };
  // A narrowing (fewer values valid) breaks input; a widening breaks output.
  /** @type {Judge} */
  const narrowed = (kind, text, name) => say(isInput ? 'breaking' : 'ok', kind, text, name);
  /** @type {Judge} */
  const widened = (kind, text, name) => say(isInput ? 'ok' : 'breaking', kind, text, name);
  /** @type {Deeper} */
  const deeper = (bn, hn, f, d = dir) =>
    compareSchema(ctx, bn, hn, d, where, { field: f, depth: depth + 1, refs, origin });
  // A subschema on one side only: its constraint was added (narrows) or removed (widens).
  /** @type {Added} */
  const added = (was, now, f, what) => {
    if (was && now) deeper(was, now, f);
    else if (now) narrowed(`${what.split(/[ []/)[0]}-added`, `${what} added`);
    else if (was) widened(`${what.split(/[ []/)[0]}-removed`, `${what} removed`);
  };
  /** @type {Direction} */
  const flip = dir === 'input' ? 'output' : 'input';

  // A deprecation is named by the schema that holds the field: the named
  // schema itself when it is deprecated there (every use of it reaches
  // partners), the schema holding the `$ref` when only that use is.
  if (b.deprecated !== h.deprecated) {
    const o = (h.deprecated ? h : b).deprecatedUse ? outer : origin;
    if (h.deprecated) say('deprecated', 'deprecated', 'deprecated', undefined, o, true);
    else say('ok', 'undeprecated', 'no longer deprecated', undefined, o, true);
  }

  // Types; integer is a kind of number.
  const hasAlternatives = b.alternatives.length || h.alternatives.length;
  const covers = (/** @type {Set<string>} */ set, /** @type {string} */ t) =>
    set.has(t) || (t === 'integer' && set.has('number'));
  // An enum whose values all have the base's types keeps the type without saying it.
  const enumFits = (/** @type {View} */ view, /** @type {Set<string>} */ types) =>
    view.enum && [...view.enum.values()].every((v) => covers(types, jsonType(v)));
  if (b.types && h.types) {
    const lost = [...b.types].filter((t) => !covers(h.types, t));
    const gained = [...h.types].filter((t) => !covers(b.types, t));
    if (lost.length && gained.length) {
      say('breaking', 'type-changed', `type ${show(b.types)} → ${show(h.types)}`);
      return;
    }
    if (lost.length) narrowed('type-narrowed', `type ${show(b.types)} → ${show(h.types)}`);
    if (gained.length) widened('type-widened', `type ${show(b.types)} → ${show(h.types)}`);
  } else if (!b.types && h.types && !hasAlternatives) narrowed('type-narrowed', `type ${show(h.types)} added`);
  else if (b.types && !h.types && !hasAlternatives && !enumFits(h, b.types))
    widened('type-widened', `type ${show(b.types)} dropped`);

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
    (tighter ? narrowed : widened)(
      tighter ? 'bound-narrowed' : 'bound-widened',
      `${k} ${was ?? 'none'} → ${now ?? 'none'}`,
    );
  }
  if (b.multipleOf !== h.multipleOf) {
    const text = `multipleOf ${b.multipleOf ?? 'none'} → ${h.multipleOf ?? 'none'}`;
    const divides = (/** @type {number} */ x, /** @type {number} */ y) => Math.abs(x / y - Math.round(x / y)) < 1e-9; // x is a multiple of y
    if (b.multipleOf === undefined || (h.multipleOf !== undefined && divides(h.multipleOf, b.multipleOf)))
      narrowed('bound-narrowed', text);
    else if (h.multipleOf === undefined || divides(b.multipleOf, h.multipleOf)) widened('bound-widened', text);
    else say('breaking', 'constraint-changed', text);
  }
  if (b.uniqueItems !== h.uniqueItems)
    (h.uniqueItems ? narrowed : widened)(
      h.uniqueItems ? 'constraint-added' : 'constraint-removed',
      `uniqueItems ${b.uniqueItems} → ${h.uniqueItems}`,
    );
  if (b.format !== h.format) {
    const text = `format ${b.format ?? 'none'} → ${h.format ?? 'none'}`;
    if (b.format === undefined) narrowed('constraint-added', text);
    else if (h.format === undefined || WIDER_FORMATS[b.format]?.includes(h.format)) widened('format-widened', text);
    else if (WIDER_FORMATS[h.format]?.includes(b.format)) narrowed('format-narrowed', text);
    else say('review', 'format-changed', `${text} (how the two relate is not known)`);
  }
  const patternsAdded = [...h.patterns].filter((p) => !b.patterns.has(p));
  const patternsRemoved = [...b.patterns].filter((p) => !h.patterns.has(p));
  if (patternsAdded.length && patternsRemoved.length)
    say(
      'review',
      'pattern-changed',
      `pattern ${patternsRemoved.join(' & ')} → ${patternsAdded.join(' & ')} (whether it accepts more or less is not known)`,
    );
  else if (patternsAdded.length) narrowed('constraint-added', `pattern ${patternsAdded.join(' & ')} added`);
  else if (patternsRemoved.length) widened('constraint-removed', `pattern ${patternsRemoved.join(' & ')} removed`);

  // Annotations that change what a side may send or rely on.
  if (!b.readOnly && h.readOnly) narrowed('read-only-added', 'became readOnly (no longer sent in requests)');
  if (!b.writeOnly && h.writeOnly) widened('write-only-added', 'became writeOnly (no longer in answers)');
  if (b.readOnly && !h.readOnly) say('ok', 'read-only-removed', 'no longer readOnly');
  if (b.writeOnly && !h.writeOnly) say('ok', 'write-only-removed', 'no longer writeOnly');
  if (b.default !== h.default) {
    const text = `default ${b.default ?? 'none'} → ${h.default ?? 'none'}`;
    if (b.default === undefined) say('ok', 'default-added', text);
    else if (h.default === undefined)
      say('review', 'default-removed', `${text} (is what an absent value means still the same?)`);
    else say('breaking', 'default-changed', `${text} (an absent value now means something else)`);
  }
  for (const k of new Set([...b.unknown.keys(), ...h.unknown.keys()])) {
    if (b.unknown.get(k) !== h.unknown.get(k))
      say('review', 'keyword-changed', `${k} ${b.unknown.get(k) ?? 'none'} → ${h.unknown.get(k) ?? 'none'}`);
  }

  const scope = { b, h, baseNode, headNode, field, isInput, say, narrowed, widened, sub, deeper, added };
  compareObjects(scope);

  // Arrays.
  if (b.items === false || h.items === false) {
    if (b.items !== h.items)
      (h.items === false ? narrowed : widened)(
        h.items === false ? 'items-closed' : 'items-opened',
        h.items === false ? 'no items beyond prefixItems' : 'items beyond prefixItems allowed',
      );
  } else added(b.items, h.items, `${field}[]`, 'items');
  for (let i = 0; i < Math.max(b.prefixItems.length, h.prefixItems.length); i++) {
    added(
      b.prefixItems[i] && merged(b.prefixItems[i]),
      h.prefixItems[i] && merged(h.prefixItems[i]),
      `${field}[${i}]`,
      `prefixItems[${i}]`,
    );
  }
  if (!b.contains.length && h.contains.length) narrowed('contains-added', 'must contain a matching item');
  else if (b.contains.length && !h.contains.length)
    widened('contains-removed', 'no longer must contain a matching item');
  else if (b.contains.length) deeper(merged(b.contains), merged(h.contains), `${field}[contains]`);

  // not: its schema is compared the other way round.
  pairUp(ctx, b.not, h.not, [byContent((x) => x)], {
    removed: () => widened('not-removed', 'a `not` constraint removed'),
    added: () => narrowed('not-added', 'a `not` constraint added'),
    changed: (x, y) => deeper(x, y, field ? `${field}[not]` : '[not]', flip),
  });
  // if/then/else: matched by their condition.
  pairUp(ctx, b.conditionals, h.conditionals, [byContent((c) => c.if ?? {})], {
    removed: () => widened('condition-removed', 'an if/then/else condition removed'),
    added: () => narrowed('condition-added', 'an if/then/else condition added'),
    changed: (x, y, sameIf) => {
      if (!sameIf) return say('review', 'condition-changed', 'the `if` of an if/then/else changed');
      deeper(x.then ?? {}, y.then ?? {}, field ? `${field}[then]` : '[then]');
      deeper(x.else ?? {}, y.else ?? {}, field ? `${field}[else]` : '[else]');
    },
  });
  compareAlternatives(ctx, scope);
}

/** @param {Scope} scope */
function compareObjects({ b, h, say, narrowed, widened, sub, deeper, added, isInput }) {
  for (const [name] of b.properties) {
    if (!h.properties.has(name)) say('breaking', 'field-removed', 'removed', name);
  }
  for (const [name, subs] of h.properties) {
    if (!b.properties.has(name)) {
      const required = h.required.has(name);
      say(
        required && isInput ? 'breaking' : 'ok',
        required && isInput ? 'field-added-required' : 'field-added',
        `added${required ? ' (required)' : ' (optional)'}`,
        name,
      );
      // A name the base accepted under additionalProperties keeps its old schema as the base.
      if (b.additionalProperties && typeof b.additionalProperties === 'object')
        deeper(b.additionalProperties, merged(subs), sub(name));
      continue;
    }
    if (!b.required.has(name) && h.required.has(name)) narrowed('field-became-required', 'became required', name);
    if (b.required.has(name) && !h.required.has(name))
      widened('field-became-optional', 'became optional (may be absent)', name);
    deeper(merged(b.properties.get(name)), merged(subs), sub(name));
  }
  for (const name of h.required) {
    if (!b.required.has(name) && !h.properties.has(name)) narrowed('field-became-required', 'became required', name);
  }
  for (const [name] of b.required.entries()) {
    if (!h.required.has(name) && !b.properties.has(name))
      widened('field-became-optional', 'became optional (may be absent)', name);
  }
  for (const k of ['additionalProperties', 'unevaluatedProperties']) {
    const [was, now] = [b[k], h[k]];
    if (was === false && now !== false) say('ok', `${k}-opened`, `${k}: accepts fields it does not declare`);
    else if (was !== false && now === false)
      narrowed(`${k}-closed`, `${k}: no longer accepts fields it does not declare`);
    else added(was, now, sub('*'), k);
  }
  for (const k of new Set([...b.patternProperties.keys(), ...h.patternProperties.keys()])) {
    const [was, now] = [b.patternProperties.get(k), h.patternProperties.get(k)];
    if (was && now) deeper(merged(was), merged(now), sub(`/${k}/`));
    else say('review', 'pattern-properties-changed', `patternProperties /${k}/ ${was ? 'removed' : 'added'}`);
  }
  added(
    b.propertyNames.length && merged(b.propertyNames),
    h.propertyNames.length && merged(h.propertyNames),
    sub('[name]'),
    'propertyNames',
  );
  for (const k of new Set([...b.dependentRequired.keys(), ...h.dependentRequired.keys()])) {
    const [was, now] = [b.dependentRequired.get(k) ?? new Set(), h.dependentRequired.get(k) ?? new Set()];
    const added = [...now].filter((/** @type {string} */ n) => !was.has(n));
    const removed = [...was].filter((/** @type {string} */ n) => !now.has(n));
    if (added.length) narrowed('dependent-required-added', `with ${k}, also requires ${added.join(', ')}`);
    if (removed.length) widened('dependent-required-removed', `with ${k}, no longer requires ${removed.join(', ')}`);
  }
  for (const k of new Set([...b.dependentSchemas.keys(), ...h.dependentSchemas.keys()])) {
    const [was, now] = [b.dependentSchemas.get(k), h.dependentSchemas.get(k)];
    added(was && merged(was), now && merged(now), sub(`[with ${k}]`), `dependentSchemas ${k}`);
  }
}

/**
 * Pairs two lists of schemas: by each key in turn (the same, and not null),
 * then the one left on each side, if so; reports the rest.
 * @type {(ctx: Context, bs: Json[], hs: Json[], keys: ((doc: Json, x: Json) => string | null)[], on: {
 *   removed: (x: Json, i: number) => void, added: (x: Json, j: number) => void, changed: (x: Json, y: Json, byKey: boolean) => void,
 * }) => void}
 */
const pairUp = (ctx, bs, hs, keys, on) => {
  const [bLeft, hLeft] = [new Set(bs.keys()), new Set(hs.keys())];
  for (const key of keys) {
    for (const i of [...bLeft]) {
      const k = key(ctx.base, bs[i]);
      const j = k === null || k === undefined ? undefined : [...hLeft].find((j2) => key(ctx.head, hs[j2]) === k);
      if (j === undefined) continue;
      bLeft.delete(i);
      hLeft.delete(j);
      on.changed(bs[i], hs[j], true);
    }
  }
  if (bLeft.size === 1 && hLeft.size === 1) return on.changed(bs[[...bLeft][0]], hs[[...hLeft][0]], false);
  for (const i of bLeft) on.removed(bs[i], i);
  for (const j of hLeft) on.added(hs[j], j);
};
/** @type {(keyOf: (x: Json) => Json) => (doc: Json, x: Json) => string} */
const byContent = (keyOf) => (doc, x) => fingerprint(doc, keyOf(x));

/** @type {(doc: Json, node: Json, property: string | undefined) => string | null} */
const discriminatorValue = (doc, node, property) => {
  if (!property) return null;
  const v = flatten(doc, node).properties.get(property);
  const e = v && flatten(doc, merged(v)).enum;
  return e?.size === 1 ? [...e.keys()][0] : null;
};

/** @type {(ctx: Context, scope: Scope) => void} */
function compareAlternatives(ctx, { b, h, baseNode, headNode, say, narrowed, widened, deeper, field }) {
  const [ba, ha] = [b.alternatives, h.alternatives];
  if (!ba.length && !ha.length) return;
  if (ba.length > 1 || ha.length > 1) {
    const lists = (/** @type {Json} */ doc, /** @type {Json[]} */ alts) =>
      JSON.stringify(alts.map((a) => [a.kind, a.list.map((/** @type {Json} */ x) => fingerprint(doc, x)).sort()]));
    if (lists(ctx.base, ba) !== lists(ctx.head, ha))
      say('review', 'alternatives-changed', 'several oneOf/anyOf lists changed');
    return;
  }
  // One side without alternatives: the base (or head) as a whole may be one of them.
  const [bl, hl] = [ba[0]?.list ?? [baseNode], ha[0]?.list ?? [headNode]];
  if (!ba.length || !ha.length) {
    const lone = fingerprint(ba.length ? ctx.head : ctx.base, ba.length ? headNode : baseNode);
    const list = ba.length ? bl : hl;
    if (!list.some((/** @type {Json} */ x) => fingerprint(ba.length ? ctx.base : ctx.head, x) === lone)) {
      return say('review', 'alternatives-changed', ba.length ? `${ba[0].kind} removed` : `${ha[0].kind} added`);
    }
  } else if (ba[0].kind !== ha[0].kind) {
    (ha[0].kind === 'anyOf' ? widened : narrowed)('alternatives-kind-changed', `${ba[0].kind} → ${ha[0].kind}`);
  }
  const [bd, hd] = [ba[0]?.discriminator, ha[0]?.discriminator];
  if (bd?.propertyName !== hd?.propertyName) {
    if (bd && hd) say('breaking', 'discriminator-changed', `discriminator ${bd.propertyName} → ${hd.propertyName}`);
    else
      say(
        'review',
        'discriminator-changed',
        `discriminator ${bd ? `${bd.propertyName} removed` : `${hd.propertyName} added`}`,
      );
  } else if (bd && hd) {
    const [bm, hm] = [bd.mapping ?? {}, hd.mapping ?? {}];
    for (const k of Object.keys(bm))
      if (!(k in hm)) narrowed('discriminator-mapping-removed', `discriminator value ${k} no longer mapped`);
    for (const k of Object.keys(hm)) {
      if (!(k in bm)) widened('discriminator-mapping-added', `discriminator value ${k} mapped`);
      else if (fingerprint(ctx.base, { $ref: bm[k] }) !== fingerprint(ctx.head, { $ref: hm[k] }))
        deeper({ $ref: bm[k] }, { $ref: hm[k] }, field);
    }
  }
  // Alternatives: same content, else same name, else same discriminator value, else the last one left.
  const property = hd?.propertyName ?? bd?.propertyName;
  const labelOf = (/** @type {Json} */ x, /** @type {number} */ i) => refName(x) ?? `#${i + 1}`;
  pairUp(
    ctx,
    bl,
    hl,
    [byContent((x) => x), (_doc, x) => refName(x), (doc, x) => discriminatorValue(doc, x, property)],
    {
      removed: (x, i) => narrowed('alternative-removed', `alternative ${labelOf(x, i)} removed`),
      added: (x, j) => widened('alternative-added', `alternative ${labelOf(x, j)} added`),
      changed: (x, y) => deeper(x, y, field),
    },
  );
}
