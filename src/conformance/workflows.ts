// Runs the documented sequences (Arazzo 1.0) against the target: the subset
// those files use (operationId steps, parameters, JSON payloads, runtime
// expressions, simple success criteria, retry on failure).
import { randomInt, randomUUID } from 'node:crypto';
import type { Exchange } from './http.js';
import type { Json } from '../contract/json.js';
import { encode } from './schema-values.js';
import { valueAtPointer } from '../contract/json-pointer.js';
import { rowsOf } from './assumptions.js';

/** A step's request, as the target is sent it. */
export interface StepCall extends Pick<Exchange, 'method' | 'target' | 'headers' | 'body'> {
  /** `workflow new-user, step create` */
  where: string;
  source: string;
  operationId: string;
}

export interface StepOutcome {
  stepId: string;
  call: StepCall;
  exchange: Exchange;
  /** Success criteria that did not hold, each with the assumption rows it rests on (its `x-assumed`). */
  failed: { condition: string; assumed: string[] }[];
}

interface Scope {
  inputs: Record<string, unknown>;
  steps: Record<string, Record<string, unknown>>;
  exchange?: Exchange;
}

/** The value of a runtime expression or literal. */
function evaluate(expr: string, scope: Scope): unknown {
  const e = expr.trim();
  if (e === '$statusCode') return scope.exchange?.status;
  if (e.startsWith('$response.body')) return valueAtPointer(scope.exchange?.received, e.slice('$response.body'.length));
  let m = /^\$inputs\.(.+)$/.exec(e);
  if (m) return scope.inputs[m[1]];
  m = /^\$steps\.([^.]+)\.outputs\.(.+)$/.exec(e);
  if (m) return scope.steps[m[1]]?.[m[2]];
  if (/^'.*'$/.test(e)) return e.slice(1, -1);
  if (/^(null|true|false|-?\d+(\.\d+)?)$/.test(e)) return JSON.parse(e);
  return e;
}

const same = (l: unknown, r: unknown) => l === r || (l == null && r == null);
const COMPARE: Record<string, (l: number, r: number) => boolean> = {
  '==': same,
  '!=': (l, r) => !same(l, r),
  '>=': (l, r) => l >= r,
  '<=': (l, r) => l <= r,
  '>': (l, r) => l > r,
  '<': (l, r) => l < r,
};

/** A simple success criterion: `left op right`, or a lone expression that must be truthy. */
function holds(condition: string, scope: Scope): boolean {
  const [, left, op, right] = /^(.+?) (==|!=|>=|<=|>|<) (.+)$/.exec(condition) ?? [];
  if (!op) return Boolean(evaluate(condition, scope));
  return COMPARE[op](evaluate(left, scope) as number, evaluate(right, scope) as number);
}

function resolvePayload(payload: unknown, scope: Scope): unknown {
  if (typeof payload === 'string') return payload.startsWith('$') ? evaluate(payload, scope) : payload;
  if (Array.isArray(payload)) return payload.map((p) => resolvePayload(p, scope));
  if (payload && typeof payload === 'object')
    return Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, resolvePayload(v, scope)]));
  return payload;
}

/** Finds `$sourceDescriptions.<source>.<operationId>` in the documents. */
function operationOf(ref: string, docs: Record<string, Json>) {
  const [, source, operationId] = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(ref) ?? [];
  for (const [path, item] of Object.entries<Json>(docs[source]?.paths ?? {})) {
    for (const method of ['get', 'put', 'post', 'patch', 'delete']) {
      if (item[method]?.operationId === operationId) return { source, operationId, method: method.toUpperCase(), path };
    }
  }
  throw new Error(`workflow step names ${ref}, which no bundled document has`);
}

/** Fresh inputs: the credential, and partner user ids and phone numbers the target has not seen. */
export function inputsFor(workflow: Json, credential: string): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  const phoneBase = String(randomInt(10_000_000, 100_000_000));
  let n = 0;
  for (const name of Object.keys(workflow.inputs?.properties ?? {})) {
    if (name === 'authKey') inputs[name] = credential;
    else if (/ExternalUserId$/.test(name)) inputs[name] = randomUUID();
    else if (/PhoneNumber$/.test(name)) inputs[name] = `+4915${phoneBase}${n++}`;
  }
  return inputs;
}

/** Runs one workflow; stops at the first step whose criteria fail, and returns its outcome (none when every step held). */
export async function runWorkflow(
  workflow: Json,
  inputs: Record<string, unknown>,
  docs: Record<string, Json>,
  send: (call: StepCall) => Promise<Exchange>,
): Promise<StepOutcome | undefined> {
  const scope: Scope = { inputs, steps: {} };
  for (const step of workflow.steps ?? []) {
    const op = operationOf(step.operationId, docs);
    let path = op.path;
    const query: string[] = [];
    const headers: Record<string, string> = {};
    for (const p of step.parameters ?? []) {
      const value = String(evaluate(String(p.value), scope));
      if (p.in === 'header') headers[p.name] = value;
      else if (p.in === 'path') path = path.replace(`{${p.name}}`, encode(value));
      else if (p.in === 'query') query.push(`${encode(p.name)}=${encode(value)}`);
    }
    let body: string | undefined;
    if (step.requestBody) {
      const payload = resolvePayload(step.requestBody.payload, scope);
      body = typeof payload === 'string' ? payload : JSON.stringify(payload);
      headers['Content-Type'] = step.requestBody.contentType ?? 'application/json';
    }
    const call: StepCall = {
      ...op,
      where: `workflow ${workflow.workflowId}, step ${step.stepId}`,
      target: query.length ? `${path}?${query.join('&')}` : path,
      headers,
      body,
    };
    const retry = (step.onFailure ?? []).find((a: Json) => a.type === 'retry');
    let failed: StepOutcome['failed'] = [];
    for (let attempt = 0; ; attempt++) {
      scope.exchange = await send(call);
      failed = (step.successCriteria ?? [])
        .filter((c: Json) => !holds(String(c.condition), scope))
        .map((c: Json) => ({ condition: String(c.condition), assumed: rowsOf(c['x-assumed']) }));
      if (!failed.length || !retry || attempt >= (retry.retryLimit ?? 1)) break;
      await new Promise((r) => setTimeout(r, (retry.retryAfter ?? 0) * 1000));
    }
    if (failed.length) return { stepId: step.stepId, call, exchange: scope.exchange, failed };
    scope.steps[step.stepId] = Object.fromEntries(
      Object.entries<string>(step.outputs ?? {}).map(([k, v]) => [k, evaluate(v, scope)]),
    );
  }
  return undefined;
}
