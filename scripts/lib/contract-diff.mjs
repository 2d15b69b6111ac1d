// @ts-check
// Structural diff of two bundled OpenAPI 3.x documents, judged from the
// consumer's side: what a consumer sends ("input": parameters and request
// bodies; a webhook's answer) may only accept more, what it receives
// ("output": responses; a webhook's parameters and payload) may only promise
// more. A deprecation is a verdict of its own (`deprecated`), which passes
// the gate but is listed apart for partners. OpenAPI keywords with no rule
// here are reported for review until acknowledged in
// .ci/diff-acknowledged.yaml; annotations are not compared. Schemas are
// judged by scripts/lib/schema-diff.mjs; the choices the rule alone does not
// settle are D1-D6 in guides/maintainers-decisions.md.
import { compareSchema, deref, isAnnotation, words } from './schema-diff.mjs';

/**
 * @typedef {import('./schema-diff.mjs').Json} Json
 * @typedef {import('./schema-diff.mjs').Verdict} Verdict
 * @typedef {import('./schema-diff.mjs').Direction} Direction
 * @typedef {import('./schema-diff.mjs').Context} Context
 * @typedef {Context['report']} Report
 * @typedef {{ location: string, match: string, key: string, method: string, isWebhook: boolean, item: Json, operation: Json }} Operation
 * @typedef {{ base: Json, head: Json, b: Operation, h: Operation, report: Report }} Pair
 * @typedef {(ctx: Context, was: Json, now: Json, dir: Direction, where: string) => void} Comparer
 * A change, and the reason a reviewer gave for it where it was acknowledged.
 * @typedef {{ location: string, kind: string, detail: string, about: string, acknowledged?: string }} Change
 */

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation and webhook of a document, with its location label. */
export function operationsOf(/** @type {Json} */ doc) {
  /** @type {Operation[]} */
  const ops = [];
  for (const section of ['paths', 'webhooks']) {
    const isWebhook = section === 'webhooks';
    for (const [key, rawItem] of Object.entries(doc?.[section] ?? {})) {
      const item = deref(doc, rawItem);
      const methods = METHODS.filter((m) => item[m]);
      for (const method of methods) {
        const verb = method.toUpperCase();
        const location = isWebhook
          ? `webhook ${key}${method === 'post' && methods.length === 1 ? '' : ` (${verb})`}`
          : `${verb} ${key}`;
        // Paths that differ only in a path parameter's name are one endpoint.
        const match = isWebhook ? location : `${verb} ${key.replace(/\{[^}]*\}/g, '{}')}`;
        ops.push({ location, match, key, method, isWebhook, item, operation: item[method] });
      }
    }
  }
  return ops;
}

const label = (/** @type {Json} */ op) => op.summary ?? op.operationId ?? '';
/** @type {(narrows: boolean, dir: Direction) => Verdict} A narrowing breaks what a consumer sends, a widening what it receives. */
const byDirection = (narrows, dir) => (narrows === (dir === 'input') ? 'breaking' : 'ok');
/** @type {Record<Verdict, 'breaking' | 'review' | 'deprecated' | 'nonBreaking'>} */
const VERDICTS = { breaking: 'breaking', review: 'review', deprecated: 'deprecated', ok: 'nonBreaking' };
// The keys each object has a rule for; the others are compared by `unruled`.
const keys = (/** @type {string} */ list) => new Set(words(list));
const PARAMETER_KEYS = keys('name in required deprecated allowEmptyValue style explode allowReserved schema content');
const OPERATION_KEYS = keys('tags operationId parameters requestBody responses security deprecated');
// Security scheme fields that only document the credential (OpenAPI: "primarily for documentation").
const SCHEME_NOTES = new Set(['bearerFormat']);
const MEDIA_KEYS = new Set(['schema']);
const BODY_KEYS = new Set(['content', 'required']);
const RESPONSE_KEYS = new Set(['headers', 'content', 'links']);
/** What is left of an object once its annotations and known keys are set aside, as text. */
const rest = (/** @type {Json} */ obj, /** @type {Set<string>} */ known) =>
  JSON.stringify(
    Object.entries(obj ?? {})
      .filter(([k]) => !known.has(k) && !isAnnotation(k))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
/**
 * Keywords no rule judges, changed: for a person to review.
 * @type {(report: Report, kind: string, text: string, was: Json, now: Json, known: Set<string>) => void}
 */
const unruled = (report, kind, text, was, now, known) => {
  const [before, after] = [rest(was, known), rest(now, known)];
  if (before !== after) report('review', kind, `${text}: ${before} → ${after}`);
};

/** @typedef {{ breaking: Change[], review: Change[], deprecated: Change[], nonBreaking: Change[] }} Changes */
export function diffDocuments(/** @type {Json} */ base, /** @type {Json} */ head) {
  /** @type {Changes} */
  const out = { breaking: [], review: [], deprecated: [], nonBreaking: [] };
  const seen = new Set();
  /** @type {(verdict: Verdict, location: string, kind: string, detail: string, about?: string) => void} */
  const add = (verdict, location, kind, detail, about = detail) => {
    const key = `${location}\n${kind}\n${detail}`;
    if (seen.has(key)) return;
    seen.add(key);
    out[VERDICTS[verdict]].push({ location, kind, detail, about });
  };
  // "operation removed (List verifications)", of kind operation-removed.
  /** @type {(op: Operation, what: string) => [string, string]} */
  const said = (op, what) => {
    const noun = op.isWebhook ? 'webhook' : 'operation';
    return [`${noun}-${what}`, `${noun} ${what}${label(op.operation) ? ` (${label(op.operation)})` : ''}`];
  };

  const baseOps = new Map(operationsOf(base).map((o) => [o.match, o]));
  const headOps = operationsOf(head);
  const headMatches = new Set(headOps.map((o) => o.match));
  for (const [match, op] of baseOps) {
    if (!headMatches.has(match)) add('breaking', op.location, ...said(op, 'removed'));
  }
  for (const h of headOps) {
    const b = baseOps.get(h.match);
    if (!b) add('ok', h.location, ...said(h, 'added'));
    else {
      /** @type {Report} */
      const report = (verdict, kind, detail, about) => add(verdict, h.location, kind, detail, about);
      compareOperation({ base, head, b, h, report });
    }
  }
  const servers = (/** @type {Json} */ doc) =>
    JSON.stringify([...new Set((doc?.servers ?? []).map((/** @type {Json} */ sv) => sv.url))].sort());
  if (Object.keys(base ?? {}).length && servers(base) !== servers(head)) {
    add('review', 'API', 'servers-changed', `servers ${servers(base)} → ${servers(head)}`);
  }
  return out;
}

/**
 * An operation's security as alternatives, each a list of `{ name, scheme, scopes }`; [[]] when none is needed.
 * @type {(doc: Json, op: Operation) => { name: string, scheme: Json, key: string, scopes: string[] }[][]}
 */
const securityOf = (doc, op) => {
  const list = op.operation.security ?? doc.security ?? [];
  if (!list.length) return [[]];
  return list.map((/** @type {Record<string, string[] | undefined>} */ alt) =>
    Object.entries(alt).map(([name, scopes]) => {
      const raw = schemeOf(doc, name);
      const scheme = Object.fromEntries(
        Object.entries(raw).map(([k, v]) => [
          k,
          typeof v === 'string' && (k === 'scheme' || (k === 'name' && raw.in === 'header')) ? v.toLowerCase() : v,
        ]),
      );
      return { name, scheme, key: JSON.stringify(Object.entries(scheme).sort()), scopes: [...(scopes ?? [])].sort() };
    }),
  );
};

/** A security scheme's fields that decide the credential (annotations and notes left out). */
const schemeOf = (/** @type {Json} */ doc, /** @type {string} */ name) =>
  Object.fromEntries(
    Object.entries(deref(doc, doc.components?.securitySchemes?.[name])).filter(
      ([k]) => !isAnnotation(k) && !SCHEME_NOTES.has(k),
    ),
  );

/** @type {(base: Json, head: Json, name: string) => string} What changed in a scheme ("name X-Auth-Key → X-Api-Key"). */
const schemeChange = (base, head, name) => {
  const [was, now] = [schemeOf(base, name), schemeOf(head, name)];
  return [...new Set([...Object.keys(was), ...Object.keys(now)])]
    .filter((k) => JSON.stringify(was[k]) !== JSON.stringify(now[k]))
    .map((k) => `${k} ${JSON.stringify(was[k]) ?? 'none'} → ${JSON.stringify(now[k]) ?? 'none'}`)
    .join(', ');
};

/** @param {Pair} pair */
function compareSecurity({ base, head, b, h, report }) {
  const [bs, hs] = [securityOf(base, b), securityOf(head, h)];
  // A set of credentials satisfies an alternative that asks for no more than it holds.
  /** @typedef {ReturnType<typeof securityOf>[number]} Alternative */
  /** @type {(creds: Alternative, alt: Alternative) => boolean} */
  const satisfies = (creds, alt) =>
    alt.every((need) => creds.some((c) => c.key === need.key && need.scopes.every((s) => c.scopes.includes(s))));
  const names = (/** @type {Alternative} */ alt) => (alt.length ? alt.map((x) => x.name).join(' + ') : 'none');
  /** @type {Verdict} */
  const verdict = h.isWebhook ? 'review' : 'breaking';
  for (const alt of bs) {
    if (hs.some((hAlt) => satisfies(alt, hAlt))) continue;
    // What changed: a scheme of the same name, or the requirement itself.
    const changed = alt
      .map((x) => x.name)
      .filter(
        (n) =>
          base.components?.securitySchemes?.[n] && head.components?.securitySchemes?.[n] && schemeChange(base, head, n),
      );
    for (const n of changed) {
      const text = `security scheme ${n}: ${schemeChange(base, head, n)}`;
      report(verdict, 'security-scheme-changed', `${text} (credentials sent as before are refused)`, text);
    }
    if (changed.length) continue;
    const text = `security ${names(alt)} → ${hs.map(names).join(' or ')}`;
    const kind = alt.length ? 'security-requirement-changed' : 'security-requirement-added';
    report(verdict, kind, `${text} (a call made as before is refused)`, text);
  }
  for (const alt of hs) {
    // Holding only what this alternative asks for, would the base have let the call through?
    if (bs.some((bAlt) => satisfies(alt, bAlt))) continue;
    // The same schemes, changed: reported above as a credential that no longer works.
    if (bs.some((bAlt) => names(bAlt) === names(alt) && alt.length)) continue;
    const text = `security ${bs.map(names).join(' or ')} → ${hs.map(names).join(' or ')}`;
    report('review', 'security-relaxed', `${text} (calls without the former credentials are accepted)`, text);
  }
}

/** @param {Pair} pair */
function compareOperation({ base, head, b, h, report }) {
  const [bo, ho] = [b.operation, h.operation];
  // What the consumer sends is input; a webhook turns that around.
  /** @type {Direction} */
  const requestDir = h.isWebhook ? 'output' : 'input';
  /** @type {Context} */
  const ctx = { base, head, report };

  if (bo.operationId && ho.operationId && bo.operationId !== ho.operationId) {
    report(
      'breaking',
      'operation-id-changed',
      `operationId ${bo.operationId} → ${ho.operationId} (renames the generated operation type)`,
    );
  }
  reportDeprecation(report, bo, ho, h.isWebhook ? 'webhook' : 'operation', label(ho) ? ` (${label(ho)})` : '');
  unruled(
    report,
    'operation-keyword-changed',
    'operation keywords with no rule changed (callbacks, servers, …)',
    bo,
    ho,
    OPERATION_KEYS,
  );
  const itemServers = (/** @type {Operation} */ op) => JSON.stringify(op.item.servers ?? null);
  if (itemServers(b) !== itemServers(h))
    report('review', 'servers-changed', `path servers ${itemServers(b)} → ${itemServers(h)}`);
  compareSecurity({ base, head, b, h, report });
  compareParameters(ctx, b, h, requestDir);

  const [bb, hb] = [bo.requestBody && deref(base, bo.requestBody), ho.requestBody && deref(head, ho.requestBody)];
  const bodyName = h.isWebhook ? 'payload' : 'request body';
  if (bb && !hb) report('breaking', 'request-body-removed', `${bodyName} removed`);
  if (!bb && hb) {
    const verdict = hb.required ? byDirection(true, requestDir) : 'ok';
    report(verdict, 'request-body-added', `${bodyName} added${hb.required ? ' (required)' : ''}`);
  }
  if (bb && hb) {
    reportRequired(report, bb, hb, requestDir, 'request-body', bodyName);
    unruled(report, 'request-body-keyword-changed', `${bodyName}: keywords with no rule changed`, bb, hb, BODY_KEYS);
    compareContent(ctx, bb.content, hb.content, requestDir, bodyName);
  }

  // Responses ('4xx' and '4XX' are one key).
  const responseDir = requestDir === 'input' ? 'output' : 'input';
  const statuses = (/** @type {Json} */ r) =>
    new Map(Object.entries(r ?? {}).map(([k, v]) => [/^\dxx$/i.test(k) ? k.toUpperCase() : k, v]));
  const [br, hr] = [statuses(bo.responses), statuses(ho.responses)];
  for (const status of br.keys()) {
    if (!hr.has(status)) report('breaking', 'response-removed', `response ${status} removed`);
  }
  for (const [status, raw] of hr) {
    if (!br.has(status)) {
      report('ok', 'response-added', `response ${status} added`);
      continue;
    }
    const [bResp, hResp] = [deref(base, br.get(status)), deref(head, raw)];
    const where = `response ${status}`;
    unruled(report, 'response-keyword-changed', `${where}: keywords with no rule changed`, bResp, hResp, RESPONSE_KEYS);
    compareHeaders(ctx, bResp.headers, hResp.headers, responseDir, where);
    compareContent(ctx, bResp.content, hResp.content, responseDir, where);
  }
}

/** @type {(report: Report, was: Json, now: Json, what: string, note?: string) => void} `deprecated` set or withdrawn on what `what` names. */
const reportDeprecation = (report, was, now, what, note = '') => {
  if (Boolean(was.deprecated) === Boolean(now.deprecated)) return;
  if (now.deprecated) report('deprecated', 'deprecated', `${what} deprecated${note}`);
  else report('ok', 'undeprecated', `${what} no longer deprecated${note}`);
};

/**
 * A parameter or request body newly required (narrows) or no longer required
 * (widens).
 * @type {(report: Report, was: Json, now: Json, dir: Direction, kind: string, name: string) => void}
 */
const reportRequired = (report, was, now, dir, kind, name) => {
  if (!was.required && now.required)
    report(byDirection(true, dir), `${kind}-became-required`, `${name} became required`);
  if (was.required && !now.required)
    report(byDirection(false, dir), `${kind}-became-optional`, `${name} became optional`);
};

/** Parameters: path-item level, overridden by operation level; defaults made explicit. */
function parametersOf(/** @type {Json} */ doc, /** @type {Operation} */ op) {
  /** @type {Map<string, Json>} */
  const byKey = new Map();
  const pathParams = (op.key.match(/\{[^}]*\}/g) ?? []).map((/** @type {string} */ s) => s.slice(1, -1));
  for (const raw of [...(op.item.parameters ?? []), ...(op.operation.parameters ?? [])]) {
    const p = deref(doc, raw);
    if (!p.name || !p.in) continue;
    // Path parameters are matched by position, so renaming one is no change.
    const key =
      p.in === 'path' && pathParams.includes(p.name)
        ? `path #${pathParams.indexOf(p.name)}`
        : `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
    const style = p.style ?? (p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple');
    byKey.set(key, {
      ...p,
      style,
      explode: p.explode ?? style === 'form',
      required: p.in === 'path' || Boolean(p.required),
    });
  }
  return byKey;
}

/** @type {(ctx: Context, b: Operation, h: Operation, dir: Direction) => void} */
const compareParameters = (ctx, b, h, dir) => {
  const { base, head, report } = ctx;
  const [bp, hp] = [parametersOf(base, b), parametersOf(head, h)];
  for (const [key, p] of bp) {
    if (!hp.has(key)) report('breaking', 'parameter-removed', `${p.in} parameter ${p.name} removed`);
  }
  for (const [key, p] of hp) {
    const old = bp.get(key);
    const name = `${p.in} parameter ${p.name}`;
    if (!old) {
      const verdict = p.required ? byDirection(true, dir) : 'ok';
      const kind = verdict === 'breaking' ? 'parameter-added-required' : 'parameter-added';
      report(verdict, kind, `${name} added${p.required ? ' (required)' : ' (optional)'}`);
      continue;
    }
    reportRequired(report, old, p, dir, 'parameter', name);
    reportDeprecation(report, old, p, name);
    if (old.style !== p.style)
      report('breaking', 'parameter-serialization-changed', `${name}: style ${old.style} → ${p.style}`);
    else if (old.explode !== p.explode) {
      // explode only changes how arrays and objects are written.
      /** @type {string[]} */
      const types = [].concat(deref(head, p.schema).type ?? ['array', 'object']);
      const matters = types.some((t) => t === 'array' || t === 'object');
      report(
        matters ? 'breaking' : 'ok',
        'parameter-serialization-changed',
        `${name}: explode ${old.explode} → ${p.explode}${matters ? '' : ' (no effect on a single value)'}`,
      );
    }
    for (const k of ['allowReserved', 'allowEmptyValue']) {
      // Allowing more raw values widens; the other way narrows.
      if (Boolean(old[k]) !== Boolean(p[k]))
        report(
          byDirection(Boolean(old[k]), dir),
          `parameter-${k}-changed`,
          `${name}: ${k} ${Boolean(old[k])} → ${Boolean(p[k])}`,
        );
    }
    unruled(report, 'parameter-keyword-changed', `${name}: keywords with no rule changed`, old, p, PARAMETER_KEYS);
    if (Boolean(old.content) !== Boolean(p.content))
      report(
        'review',
        'parameter-content-changed',
        `${name}: ${old.content ? 'content → schema' : 'schema → content'}`,
      );
    else if (p.content) compareContent(ctx, old.content, p.content, dir, name);
    compareSchema(ctx, old.schema, p.schema, dir, name);
  }
};

/**
 * Response headers (or, for webhooks, the partner's answer headers): only
 * what breaks is reported of their being required or not.
 * @type {Comparer}
 */
const compareHeaders = (ctx, baseHeaders = {}, headHeaders = {}, dir, where) => {
  /** @type {(doc: Json, hs: Json) => Map<string, Json>} */
  const byName = (doc, hs) =>
    new Map(Object.entries(hs).map(([k, v]) => [k.toLowerCase(), { name: k, ...deref(doc, v) }]));
  const [bh, hh] = [byName(ctx.base, baseHeaders), byName(ctx.head, headHeaders)];
  const isOutput = dir === 'output';
  for (const [key, x] of bh)
    if (!hh.has(key)) ctx.report(isOutput ? 'breaking' : 'ok', 'header-removed', `${where}: header ${x.name} removed`);
  for (const [key, x] of hh) {
    const old = bh.get(key);
    const name = `${where}: header ${x.name}`;
    if (!old) {
      const verdict = x.required ? byDirection(true, dir) : 'ok';
      ctx.report(verdict, 'header-added', `${name} added${x.required ? ' (required)' : ''}`);
      continue;
    }
    if (!old.required && x.required && !isOutput)
      ctx.report('breaking', 'header-became-required', `${name} became required`);
    if (old.required && !x.required && isOutput)
      ctx.report('breaking', 'header-became-optional', `${name} became optional (may be absent)`);
    reportDeprecation(ctx.report, old, x, name);
    if (rest(old, PARAMETER_KEYS) !== rest(x, PARAMETER_KEYS))
      ctx.report('review', 'header-keyword-changed', `${name}: keywords with no rule changed`);
    compareSchema(ctx, old.schema, x.schema, dir, name);
  }
};

/** @type {Comparer} */
const compareContent = (ctx, baseContent = {}, headContent = {}, dir, where) => {
  // Media types compare without case or spaces: `application/json; charset=utf-8`.
  /** @type {(c: Json) => Map<string, Json>} */
  const norm = (c) => new Map(Object.entries(c).map(([k, v]) => [k.toLowerCase().replace(/\s+/g, ''), v]));
  const [bc, hc] = [norm(baseContent), norm(headContent)];
  const single = bc.size <= 1 && hc.size <= 1;
  for (const type of bc.keys()) {
    if (!hc.has(type)) ctx.report('breaking', 'media-type-removed', `${where}: media type ${type} removed`);
  }
  for (const [type, media] of hc) {
    if (!bc.has(type)) {
      ctx.report('ok', 'media-type-added', `${where}: media type ${type} added`);
      continue;
    }
    const at = single && type === 'application/json' ? where : `${where} (${type})`;
    const old = bc.get(type);
    unruled(ctx.report, 'media-keyword-changed', `${at}: encoding or other keywords changed`, old, media, MEDIA_KEYS);
    compareSchema(ctx, old.schema, media.schema, dir, at);
  }
};
