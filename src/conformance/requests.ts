// Requests generated from the contract, per operation: valid ones and ones
// breaking one rule, as the sandbox's request parser judges them.
import fc from 'fast-check';
import type { ParsedRequest, RouteParam } from '../contract/routes.js';
import type { OperationModel } from './operations.js';
import type { Json } from '../contract/json.js';
import { encode, mutationsOf, valueFor } from './schema-values.js';

export interface Draft {
  operation: OperationModel;
  kind: 'valid' | 'invalid';
  /** Path and query, as sent on the request line. */
  target: string;
  body: string | undefined;
  /** Invalid requests: the rule broken, `query limit: above-maximum (MAXIMUM)`. */
  rule?: string;
  /** Invalid requests: the assumption rows the broken rule rests on (empty: the documents' rule). */
  assumed?: string[];
  /** Valid requests: the values as the contract reads them (for the filter checks). */
  parsed?: ParsedRequest;
}

export interface GenerationContext {
  doc: Json;
  /** Ids that exist on the target, by path parameter name (from the list operations). */
  knownIds: Record<string, string[]>;
  /** Fixed bodies for operations that must not send generated ones (PUT /partners gets the partner's current values). */
  fixedBodies?: Record<string, unknown>;
}

interface Parts {
  path: Record<string, string>;
  query: string[];
  body: unknown;
  hasBody: boolean;
  rule?: string;
  assumed?: string[];
}

const scalarText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

function queryPairs(p: RouteParam, value: unknown): string[] {
  const name = encode(p.name);
  if (!p.array || !Array.isArray(value)) return [`${name}=${encode(scalarText(value))}`];
  const items = value.map((v) => encode(scalarText(v)));
  return p.explode ? items.map((i) => `${name}=${i}`) : [`${name}=${items.join(',')}`];
}

function validQueryArb(ctx: GenerationContext, params: RouteParam[]): fc.Arbitrary<string[]> {
  const query = params.filter((p) => p.in === 'query');
  if (!query.length) return fc.constant([]);
  const values = query.map((p) => {
    const arb = p.array
      ? fc.array(valueFor(ctx.doc, p.schema.items ?? {}), { minLength: 1, maxLength: 3 })
      : valueFor(ctx.doc, p.schema);
    return arb.map((v) => queryPairs(p, v));
  });
  return fc
    .tuple(fc.subarray(query.map((_, i) => i)), fc.tuple(...values))
    .map(([chosen, pairs]) => query.flatMap((p, i) => (p.required || chosen.includes(i) ? pairs[i] : [])));
}

/** Path parameters: mostly ids that exist; sometimes an unknown one (a documented 404). */
function pathsArb(ctx: GenerationContext, op: OperationModel): fc.Arbitrary<Record<string, string>> {
  const value = (known: string[]) =>
    known.length
      ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: fc.uuid() })
      : fc.uuid();
  const params = op.params.filter((p) => p.in === 'path');
  return fc.record(Object.fromEntries(params.map((p) => [p.name, value(ctx.knownIds[p.name] ?? [])])));
}

const validParts = (ctx: GenerationContext, op: OperationModel) => ({
  path: pathsArb(ctx, op),
  query: validQueryArb(ctx, op.params),
  body: validBodyArb(ctx, op),
});

function validBodyArb(ctx: GenerationContext, op: OperationModel): fc.Arbitrary<unknown> {
  if (ctx.fixedBodies && op.operationId in ctx.fixedBodies) return fc.constant(ctx.fixedBodies[op.operationId]);
  return op.bodySchema ? valueFor(ctx.doc, op.bodySchema) : fc.constant(undefined);
}

/** One documented rule broken, as a change of valid parts: in a query parameter (one array item for lists) or in the body. */
function brokenArbs(ctx: GenerationContext, op: OperationModel): fc.Arbitrary<(valid: Parts) => Parts>[] {
  const out: fc.Arbitrary<(valid: Parts) => Parts>[] = [];
  for (const p of op.params.filter((q) => q.in === 'query')) {
    const mutations = mutationsOf(ctx.doc, p.array ? (p.schema.items ?? {}) : p.schema);
    if (!mutations.length) continue;
    out.push(
      fc.oneof(...mutations).map((m) => (valid) => ({
        ...valid,
        // The broken parameter replaces any valid value of it.
        query: [
          ...valid.query.filter((q) => !q.startsWith(`${encode(p.name)}=`)),
          ...queryPairs(p, p.array ? [m.value] : m.value),
        ],
        rule: `query ${p.name}${m.at}: ${m.mutation}`,
        assumed: m.assumed,
      })),
    );
  }
  const mutations = op.bodySchema ? mutationsOf(ctx.doc, op.bodySchema) : [];
  if (mutations.length)
    out.push(
      fc
        .oneof(...mutations)
        .map((m) => (valid) => ({ ...valid, body: m.value, rule: `body${m.at}: ${m.mutation}`, assumed: m.assumed })),
    );
  if (op.bodySchema && op.hasBody)
    out.push(fc.constant((valid) => ({ ...valid, hasBody: false, rule: 'body: missing-required', assumed: [] })));
  return out;
}

function toDraft(op: OperationModel, kind: Draft['kind'], parts: Parts): Draft | undefined {
  let path = op.path;
  for (const [name, value] of Object.entries(parts.path)) path = path.replace(`{${name}}`, encode(value));
  const queryText = parts.query.join('&');
  const body = parts.hasBody ? parts.body : undefined;
  const parsed = op.parse({ params: parts.path, query: new URLSearchParams(queryText), body });
  // The contract is the judge: a "valid" draft it refuses, or an "invalid" one it accepts, is not sent.
  if ((kind === 'valid') !== parsed.ok) return undefined;
  const rule = parsed.ok
    ? undefined
    : `${parts.rule} (${parsed.violations.map((v) => `${v.field} ${v.reasonCode}`).join(', ')})`;
  return {
    operation: op,
    kind,
    target: queryText ? `${path}?${queryText}` : path,
    body: parts.hasBody ? JSON.stringify(body) : undefined,
    rule,
    assumed: parsed.ok ? undefined : (parts.assumed ?? []),
    parsed: parsed.ok ? parsed.value : undefined,
  };
}

/** Valid requests for an operation (a request the contract would refuse is never among them). */
export function validRequests(ctx: GenerationContext, op: OperationModel): fc.Arbitrary<Draft> {
  return fc
    .record(validParts(ctx, op))
    .map((r) => toDraft(op, 'valid', { ...r, hasBody: Boolean(op.bodySchema) }))
    .filter((d): d is Draft => d !== undefined);
}

/** Requests that break one documented rule, or undefined when the operation has no rule a request can break. */
export function invalidRequests(ctx: GenerationContext, op: OperationModel): fc.Arbitrary<Draft> | undefined {
  const broken = brokenArbs(ctx, op);
  if (!broken.length) return undefined;
  return fc
    .record({ ...validParts(ctx, op), broken: fc.oneof(...broken) })
    .map(({ broken: breakIt, ...valid }) =>
      toDraft(op, 'invalid', breakIt({ ...valid, hasBody: Boolean(op.bodySchema) })),
    )
    .filter((d): d is Draft => d !== undefined);
}

/** `count` drafts from an arbitrary, reproducible from the seed. */
export const sampleDrafts = (arb: fc.Arbitrary<Draft>, seed: number, count: number): Draft[] =>
  count > 0 ? fc.sample(arb, { seed, numRuns: count }) : [];
