// Structural diff of two bundled OpenAPI 3.x documents, judged from the
// consumer's side. Pure: no files, no git, no tools.
//
//   diffDocuments(base, head) → { breaking: Change[], nonBreaking: Change[] }
//   Change = { location, kind, detail }
//   location = 'GET /v2/verifications/{id}' | 'webhook user.created' | 'API'
//
// The rule behind every verdict: what a consumer SENDS ("input": parameters
// and request bodies of paths; the answer a partner gives to a webhook) may
// only accept more, and what a consumer RECEIVES ("output": responses of
// paths; the parameters and body of a webhook, which the partner receives)
// may only promise more. So, per direction:
//
//   | change                                   | input    | output   |
//   |------------------------------------------|----------|----------|
//   | field / parameter removed                | breaking | breaking |
//   | field / parameter added, optional        | fine     | fine     |
//   | field / parameter newly required         | breaking | fine     |
//   | field / parameter no longer required     | fine     | breaking |
//   | enum value removed (or enum/const added) | breaking | fine     |
//   | enum value added (or enum/const dropped) | fine     | breaking |
//   | bound narrowed (min raised, max lowered, | breaking | fine     |
//   |   maxLength/maxItems lowered, pattern or |          |          |
//   |   format added, …)                       |          |          |
//   | bound widened                            | fine     | breaking |
//   | type changed (disjoint types)            | breaking | breaking |
//   | type narrowed / widened (integer⊂number, | as bound | as bound |
//   |   null added or removed)                 |          |          |
//   | operation / webhook / response status /  | breaking | breaking |
//   |   media type removed                     |          |          |
//   | operationId changed (renames the type)   | breaking | breaking |
//
// Decisions: a removed request field is breaking, like a removed parameter
// (the client loses what it asked for); a removed response status is
// breaking (typed clients lose the branch, and consumers keyed on it stop
// matching); an added enum value in a response is breaking (exhaustive
// handling in consumers no longer is); an added response status is not.
// Local `$ref`s are resolved; `allOf` is merged into one view; `oneOf` and
// `anyOf` alternatives are matched by `$ref` (else by position).

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
// Keywords whose presence narrows the accepted values; their removal widens.
const PRESENCE = ['format', 'pattern', 'multipleOf'];
const MAX_DEPTH = 64;

const safeDecode = (s) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Resolves a local `$ref` (and chains of them) inside a document. */
export function deref(doc, node) {
  let current = node;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    if (!current.$ref.startsWith('#/') || hops > 32) return {};
    current = current.$ref
      .slice(2)
      .split('/')
      .map((p) => safeDecode(p).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((at, key) => at?.[key], doc);
  }
  return current ?? {};
}

/** Every operation and webhook of a document, with its location label. */
export function operationsOf(doc) {
  const ops = [];
  for (const [section, isWebhook] of [
    ['paths', false],
    ['webhooks', true],
  ]) {
    for (const [key, rawItem] of Object.entries(doc?.[section] ?? {})) {
      const item = deref(doc, rawItem);
      const methods = METHODS.filter((m) => item[m]);
      for (const method of methods) {
        const location = isWebhook
          ? `webhook ${key}${method === 'post' && methods.length === 1 ? '' : ` (${method.toUpperCase()})`}`
          : `${method.toUpperCase()} ${key}`;
        // Paths that differ only in a path parameter's name are one endpoint.
        const match = isWebhook ? location : `${method.toUpperCase()} ${key.replace(/\{[^}]*\}/g, '{}')}`;
        ops.push({ location, match, key, method, isWebhook, item, operation: item[method] });
      }
    }
  }
  return ops;
}

const flip = (dir) => (dir === 'input' ? 'output' : 'input');
const label = (op) => op.summary ?? op.operationId ?? '';

export function diffDocuments(base, head) {
  const breaking = [];
  const nonBreaking = [];
  const seen = new Set();
  const add = (isBreaking, location, kind, detail) => {
    const key = `${location}\n${kind}\n${detail}`;
    if (seen.has(key)) return;
    seen.add(key);
    (isBreaking ? breaking : nonBreaking).push({ location, kind, detail });
  };

  const baseOps = new Map(operationsOf(base).map((o) => [o.match, o]));
  const headOps = operationsOf(head);
  const headMatches = new Set(headOps.map((o) => o.match));

  for (const [match, op] of baseOps) {
    if (!headMatches.has(match)) {
      add(true, op.location, op.isWebhook ? 'webhook-removed' : 'operation-removed',
        `${op.isWebhook ? 'webhook' : 'operation'} removed${label(op.operation) ? ` (${label(op.operation)})` : ''}`);
    }
  }
  for (const h of headOps) {
    const b = baseOps.get(h.match);
    if (!b) {
      add(false, h.location, h.isWebhook ? 'webhook-added' : 'operation-added',
        `${h.isWebhook ? 'webhook' : 'operation'} added${label(h.operation) ? ` (${label(h.operation)})` : ''}`);
      continue;
    }
    const report = (isBreaking, kind, detail) => add(isBreaking, h.location, kind, detail);
    compareOperation({ base, head, b, h, report });
  }
  return { breaking, nonBreaking };
}

function compareOperation({ base, head, b, h, report }) {
  const bo = b.operation;
  const ho = h.operation;
  // What the consumer sends is input; a webhook turns that around.
  const requestDir = h.isWebhook ? 'output' : 'input';
  const ctx = { base, head, report };

  if (bo.operationId && ho.operationId && bo.operationId !== ho.operationId) {
    report(true, 'operation-id-changed', `operationId ${bo.operationId} → ${ho.operationId} (renames the generated operation type)`);
  }
  if (!bo.deprecated && ho.deprecated) report(false, 'deprecated', 'operation deprecated');

  // Parameters: path-item level, overridden by operation level.
  const params = (doc, op) => {
    const byKey = new Map();
    const pathParams = (op.key.match(/\{[^}]*\}/g) ?? []).map((s) => s.slice(1, -1));
    for (const raw of [...(op.item.parameters ?? []), ...(op.operation.parameters ?? [])]) {
      const p = deref(doc, raw);
      if (!p.name || !p.in) continue;
      // Path parameters are matched by position, so renaming one is no change.
      const key = p.in === 'path' && pathParams.includes(p.name)
        ? `path #${pathParams.indexOf(p.name)}`
        : `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
      byKey.set(key, p);
    }
    return byKey;
  };
  const bp = params(base, b);
  const hp = params(head, h);
  for (const [key, p] of bp) {
    if (!hp.has(key)) report(true, 'parameter-removed', `${p.in} parameter ${p.name} removed`);
  }
  for (const [key, p] of hp) {
    const old = bp.get(key);
    const name = `${p.in} parameter ${p.name}`;
    if (!old) {
      const required = Boolean(p.required) && requestDir === 'input';
      report(required, required ? 'parameter-added-required' : 'parameter-added',
        `${name} added${p.required ? ' (required)' : ' (optional)'}`);
    } else {
      if (!old.required && p.required) {
        report(requestDir === 'input', 'parameter-became-required', `${name} became required`);
      }
      if (old.required && !p.required) {
        report(requestDir === 'output', 'parameter-became-optional', `${name} became optional`);
      }
      const style = (x) => `${x.style ?? ''}/${x.explode ?? ''}`;
      if (style(old) !== style(p)) {
        report(true, 'parameter-serialization-changed', `${name}: style/explode ${style(old)} → ${style(p)}`);
      }
      compareSchema(ctx, old.schema, p.schema, requestDir, name, '', 0, new Set());
    }
  }

  // Request body.
  const bb = bo.requestBody ? deref(base, bo.requestBody) : null;
  const hb = ho.requestBody ? deref(head, ho.requestBody) : null;
  const bodyName = h.isWebhook ? 'payload' : 'request body';
  if (bb && !hb) report(true, 'request-body-removed', `${bodyName} removed`);
  if (!bb && hb) {
    const isBreaking = Boolean(hb.required) && requestDir === 'input';
    report(isBreaking, 'request-body-added', `${bodyName} added${hb.required ? ' (required)' : ''}`);
  }
  if (bb && hb) {
    if (!bb.required && hb.required && requestDir === 'input') report(true, 'request-body-became-required', `${bodyName} became required`);
    compareContent(ctx, bb.content, hb.content, requestDir, bodyName);
  }

  // Responses.
  const responseDir = flip(requestDir);
  const br = bo.responses ?? {};
  const hr = ho.responses ?? {};
  for (const status of Object.keys(br)) {
    if (!(status in hr)) report(true, 'response-removed', `response ${status} removed`);
  }
  for (const [status, raw] of Object.entries(hr)) {
    if (!(status in br)) {
      report(false, 'response-added', `response ${status} added`);
      continue;
    }
    const bResp = deref(base, br[status]);
    const hResp = deref(head, raw);
    for (const name of Object.keys(bResp.headers ?? {})) {
      if (!(name in (hResp.headers ?? {})) && responseDir === 'output') {
        report(true, 'response-header-removed', `response ${status}: header ${name} removed`);
      }
    }
    compareContent(ctx, bResp.content, hResp.content, responseDir, `response ${status}`);
  }
}

function compareContent(ctx, baseContent = {}, headContent = {}, dir, where) {
  const single = Object.keys(baseContent).length <= 1 && Object.keys(headContent).length <= 1;
  for (const type of Object.keys(baseContent)) {
    if (!(type in headContent)) ctx.report(true, 'media-type-removed', `${where}: media type ${type} removed`);
  }
  for (const [type, media] of Object.entries(headContent)) {
    if (!(type in baseContent)) {
      ctx.report(false, 'media-type-added', `${where}: media type ${type} added`);
      continue;
    }
    const at = single && type === 'application/json' ? where : `${where} (${type})`;
    compareSchema(ctx, baseContent[type].schema, media.schema, dir, at, '', 0, new Set());
  }
}

// ---------------------------------------------------------------- schemas --

const typesOf = (s) => {
  const list = s.type === undefined ? [] : [].concat(s.type);
  if (s.nullable === true) list.push('null');
  return new Set(list);
};

/**
 * One view of a schema with its `allOf` members merged: properties (each a
 * list of the member schemas that define it), required, types, enum and the
 * tightest bounds.
 */
function flatten(doc, node, depth = 0) {
  const s = deref(doc, node);
  const view = {
    properties: new Map(),
    required: new Set(s.required ?? []),
    types: typesOf(s),
    enum: s.enum ? new Set(s.enum.map((v) => JSON.stringify(v))) : 'const' in s ? new Set([JSON.stringify(s.const)]) : null,
    bounds: {},
    presence: {},
    additionalProperties: s.additionalProperties,
    items: s.items,
    oneOf: s.oneOf,
    anyOf: s.anyOf,
  };
  for (const k of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) if (typeof s[k] === 'number') view.bounds[k] = s[k];
  for (const k of PRESENCE) if (s[k] !== undefined) view.presence[k] = JSON.stringify(s[k]);
  if (s.uniqueItems === true) view.presence.uniqueItems = 'true';
  for (const [name, sub] of Object.entries(s.properties ?? {})) view.properties.set(name, [sub]);
  if (depth > MAX_DEPTH) return view;
  for (const member of s.allOf ?? []) {
    const m = flatten(doc, member, depth + 1);
    for (const [name, subs] of m.properties) view.properties.set(name, [...(view.properties.get(name) ?? []), ...subs]);
    for (const r of m.required) view.required.add(r);
    if (m.types.size) view.types = view.types.size ? new Set([...view.types].filter((t) => m.types.has(t))) : m.types;
    if (m.enum) view.enum = view.enum ? new Set([...view.enum].filter((v) => m.enum.has(v))) : m.enum;
    for (const [k, v] of Object.entries(m.bounds)) {
      const tighter = LOWER_BOUNDS.includes(k) ? Math.max : Math.min;
      view.bounds[k] = k in view.bounds ? tighter(view.bounds[k], v) : v;
    }
    for (const [k, v] of Object.entries(m.presence)) view.presence[k] = k in view.presence ? `${view.presence[k]}&${v}` : v;
    if (m.additionalProperties === false) view.additionalProperties = false;
    view.items ??= m.items;
    view.oneOf ??= m.oneOf;
    view.anyOf ??= m.anyOf;
  }
  return view;
}

// A property defined in several allOf members is the allOf of its definitions.
const merged = (subs) => (subs.length === 1 ? subs[0] : { allOf: subs });

function compareSchema(ctx, baseNode, headNode, dir, where, field, depth, refs) {
  if (!baseNode || !headNode || depth > MAX_DEPTH) return;
  // Recursive schemas: stop when the same pair of references comes round again.
  const pair = `${baseNode.$ref ?? ''}|${headNode.$ref ?? ''}|${dir}`;
  if (pair !== `||${dir}`) {
    if (refs.has(pair)) return;
    refs = new Set(refs).add(pair);
  }
  const { base, head, report } = ctx;
  const b = flatten(base, baseNode);
  const h = flatten(head, headNode);
  const at = field ? `${where}: field ${field}` : where;
  const isInput = dir === 'input';
  // A narrowing breaks input; a widening breaks output.
  const narrowed = (kind, detail) => report(isInput, kind, `${at}: ${detail}`);
  const widened = (kind, detail) => report(!isInput, kind, `${at}: ${detail}`);

  // Types; integer is a kind of number.
  if (b.types.size && h.types.size) {
    const covers = (set, t) => set.has(t) || (t === 'integer' && set.has('number'));
    const lost = [...b.types].filter((t) => !covers(h.types, t));
    const gained = [...h.types].filter((t) => !covers(b.types, t));
    const show = (set) => [...set].join(' | ');
    if (lost.length && gained.length) {
      // Another type: its old constraints no longer apply, so say only that.
      report(true, 'type-changed', `${at}: type ${show(b.types)} → ${show(h.types)}`);
      return;
    } else if (lost.length) {
      narrowed('type-narrowed', `type ${show(b.types)} → ${show(h.types)}`);
    } else if (gained.length) {
      widened('type-widened', `type ${show(b.types)} → ${show(h.types)}`);
    }
  } else if (!b.types.size && h.types.size) {
    narrowed('type-narrowed', `type ${[...h.types].join(' | ')} added`);
  } else if (b.types.size && !h.types.size && !h.oneOf && !h.anyOf) {
    widened('type-widened', `type ${[...b.types].join(' | ')} dropped`);
  }

  // Enums (const is an enum of one value).
  if (b.enum && h.enum) {
    const removed = [...b.enum].filter((v) => !h.enum.has(v));
    const added = [...h.enum].filter((v) => !b.enum.has(v));
    if (removed.length) narrowed('enum-values-removed', `enum values removed: ${removed.join(', ')}`);
    if (added.length) widened('enum-values-added', `enum values added: ${added.join(', ')}`);
  } else if (!b.enum && h.enum) {
    narrowed('enum-added', `restricted to ${[...h.enum].join(', ')}`);
  } else if (b.enum && !h.enum) {
    widened('enum-dropped', `no longer restricted to ${[...b.enum].join(', ')}`);
  }

  // Bounds.
  for (const k of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) {
    const [was, now] = [b.bounds[k], h.bounds[k]];
    if (was === now) continue;
    const text = `${k} ${was ?? 'none'} → ${now ?? 'none'}`;
    const tighter = was === undefined || (now !== undefined && (LOWER_BOUNDS.includes(k) ? now > was : now < was));
    if (tighter) narrowed('bound-narrowed', text);
    else widened('bound-widened', text);
  }
  for (const k of new Set([...Object.keys(b.presence), ...Object.keys(h.presence)])) {
    const [was, now] = [b.presence[k], h.presence[k]];
    if (was === now) continue;
    const text = `${k} ${was ?? 'none'} → ${now ?? 'none'}`;
    if (was !== undefined && now !== undefined) report(true, 'constraint-changed', `${at}: ${text}`);
    else if (now !== undefined) narrowed('constraint-added', text);
    else widened('constraint-removed', text);
  }

  // Object properties.
  const sub = (name) => (field ? `${field}.${name}` : name);
  for (const [name] of b.properties) {
    if (!h.properties.has(name)) {
      report(true, 'field-removed', `${where}: field ${sub(name)} removed`);
    }
  }
  for (const [name, subs] of h.properties) {
    if (!b.properties.has(name)) {
      const required = h.required.has(name);
      report(required && isInput, required && isInput ? 'field-added-required' : 'field-added',
        `${where}: field ${sub(name)} added${required ? ' (required)' : ' (optional)'}`);
      continue;
    }
    if (!b.required.has(name) && h.required.has(name)) {
      report(isInput, 'field-became-required', `${where}: field ${sub(name)} became required`);
    }
    if (b.required.has(name) && !h.required.has(name)) {
      report(!isInput, 'field-became-optional', `${where}: field ${sub(name)} became optional (may be absent)`);
    }
    compareSchema(ctx, merged(b.properties.get(name)), merged(subs), dir, where, sub(name), depth + 1, refs);
  }
  // Required names without a property schema (possible in JSON Schema).
  for (const name of h.required) {
    if (!b.required.has(name) && !h.properties.has(name) && isInput) {
      report(true, 'field-became-required', `${where}: field ${sub(name)} became required`);
    }
  }
  if (b.additionalProperties !== false && h.additionalProperties === false) {
    narrowed('additional-properties-closed', 'no longer accepts fields it does not declare');
  }
  const objectSchema = (x) => x && typeof x === 'object';
  if (objectSchema(b.additionalProperties) && objectSchema(h.additionalProperties)) {
    compareSchema(ctx, b.additionalProperties, h.additionalProperties, dir, where, sub('*'), depth + 1, refs);
  }

  // Arrays.
  if (b.items && h.items) compareSchema(ctx, b.items, h.items, dir, where, `${field}[]`, depth + 1, refs);

  // Alternatives.
  for (const k of ['oneOf', 'anyOf']) {
    const [bs, hs] = [b[k], h[k]];
    if (!bs && !hs) continue;
    if (!bs || !hs) {
      report(true, 'type-changed', `${at}: ${bs ? `${k} removed` : `${k} added`}`);
      continue;
    }
    const keyOf = (s, i) => s.$ref ?? `#${i}`;
    const bm = new Map(bs.map((s, i) => [keyOf(s, i), s]));
    const hm = new Map(hs.map((s, i) => [keyOf(s, i), s]));
    for (const [key] of bm) if (!hm.has(key)) narrowed('alternative-removed', `${k} alternative ${key} removed`);
    for (const [key, s] of hm) {
      if (!bm.has(key)) widened('alternative-added', `${k} alternative ${key} added`);
      else compareSchema(ctx, bm.get(key), s, dir, where, field, depth + 1, refs);
    }
  }
}
