// Requests generated from the contract, per operation: valid ones (every
// documented rule kept) and invalid ones (one documented rule broken). The
// sandbox's request parser decides what is valid, so a request is sent as
// "invalid" only when the contract really refuses it, with the rule it breaks.
import fc from 'fast-check';
import { encode, mutationsOf, valueFor } from './schema-values.js';
// URIs in generated bodies stay on documentation hosts: a real service may try them.
const URIS = fc.constantFrom('https://partner.example.com/kyc/done', 'https://partner.example.com/kyc/error?x=1');
const scalarText = (v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
function queryPairs(p, value) {
    const name = encode(p.name);
    if (!p.array || !Array.isArray(value))
        return [`${name}=${encode(scalarText(value))}`];
    const items = value.map((v) => encode(scalarText(v)));
    return p.explode ? items.map((i) => `${name}=${i}`) : [`${name}=${items.join(',')}`];
}
function pathArb(ctx, p) {
    const known = ctx.knownIds[p.name] ?? [];
    // Mostly ids that exist; sometimes an unknown one (a documented 404).
    const unknown = fc.uuid();
    return known.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: unknown }) : unknown;
}
function validQueryArb(ctx, params) {
    const query = params.filter((p) => p.in === 'query');
    if (!query.length)
        return fc.constant([]);
    const values = query.map((p) => {
        const arb = p.array ? fc.array(valueFor(ctx.doc, p.schema.items ?? {}, { uri: URIS }), { minLength: 1, maxLength: 3 }) : valueFor(ctx.doc, p.schema, { uri: URIS });
        return arb.map((v) => queryPairs(p, v));
    });
    return fc.tuple(fc.subarray(query.map((_, i) => i)), fc.tuple(...values)).map(([chosen, pairs]) => query.flatMap((p, i) => (p.required || chosen.includes(i) ? pairs[i] : [])));
}
function pathsArb(ctx, op) {
    const params = op.params.filter((p) => p.in === 'path');
    return fc.record(Object.fromEntries(params.map((p) => [p.name, pathArb(ctx, p)])));
}
function validBodyArb(ctx, op) {
    if (ctx.fixedBodies && op.operationId in ctx.fixedBodies)
        return fc.constant(ctx.fixedBodies[op.operationId]);
    return op.bodySchema ? valueFor(ctx.doc, op.bodySchema, { uri: URIS }) : fc.constant(undefined);
}
/** One documented rule broken: in a query parameter (one array item for lists) or in the body. */
function brokenArbs(ctx, op) {
    const out = [];
    for (const p of op.params.filter((q) => q.in === 'query')) {
        const target = p.array ? (p.schema.items ?? {}) : p.schema;
        const mutations = mutationsOf(ctx.doc, target, { uri: URIS });
        if (!mutations.length)
            continue;
        out.push(fc.oneof(...mutations).map((m) => ({
            param: p.name,
            query: queryPairs(p, p.array ? [m.value] : m.value),
            rule: `query ${p.name}${m.at}: ${m.mutation}`,
        })));
    }
    if (op.bodySchema) {
        const mutations = mutationsOf(ctx.doc, op.bodySchema, { uri: URIS });
        if (mutations.length)
            out.push(fc.oneof(...mutations).map((m) => ({ body: m.value, rule: `body${m.at || ''}: ${m.mutation}` })));
        if (op.route.hasBody)
            out.push(fc.constant({ noBody: true, rule: 'body: missing-required' }));
    }
    return out;
}
function toDraft(op, kind, parts) {
    let path = op.path;
    for (const [name, value] of Object.entries(parts.path))
        path = path.replace(`{${name}}`, encode(value));
    const queryText = parts.query.join('&');
    const parsed = op.route.parse({ params: parts.path, query: new URLSearchParams(queryText), body: parts.hasBody ? parts.body : undefined });
    // The contract is the judge: a "valid" draft it refuses, or an "invalid" one it accepts, is not sent.
    if ((kind === 'valid') !== parsed.ok)
        return undefined;
    const rule = parsed.ok ? undefined : `${parts.rule} (${parsed.violations.map((v) => `${v.field} ${v.reasonCode}`).join(', ')})`;
    return {
        operation: op,
        kind,
        method: op.method,
        target: queryText ? `${path}?${queryText}` : path,
        body: parts.hasBody ? JSON.stringify(parts.body) : undefined,
        rule,
        parsed: parsed.ok ? parsed.value : undefined,
    };
}
/** Valid requests for an operation (a request the contract would refuse is never among them). */
export function validRequests(ctx, op) {
    return fc
        .record({ path: pathsArb(ctx, op), query: validQueryArb(ctx, op.params), body: validBodyArb(ctx, op) })
        .map((r) => toDraft(op, 'valid', { ...r, hasBody: Boolean(op.bodySchema) }))
        .filter((d) => d !== undefined);
}
/** Requests that break one documented rule, or undefined when the operation has no rule a request can break. */
export function invalidRequests(ctx, op) {
    const broken = brokenArbs(ctx, op);
    if (!broken.length)
        return undefined;
    return fc
        .record({ path: pathsArb(ctx, op), query: validQueryArb(ctx, op.params), body: validBodyArb(ctx, op), broken: fc.oneof(...broken) })
        .map(({ path, query, body, broken: b }) => {
        // The broken parameter replaces any valid value of it.
        const others = b.param ? query.filter((q) => !q.startsWith(`${encode(b.param)}=`)) : query;
        return toDraft(op, 'invalid', {
            path,
            query: [...others, ...(b.query ?? [])],
            body: b.body !== undefined ? b.body : body,
            hasBody: Boolean(op.bodySchema) && !b.noBody,
            rule: b.rule,
        });
    })
        .filter((d) => d !== undefined);
}
/** `count` drafts from an arbitrary, reproducible from the seed. */
export function sampleDrafts(arb, seed, count) {
    return count > 0 ? fc.sample(arb, { seed, numRuns: count }) : [];
}
