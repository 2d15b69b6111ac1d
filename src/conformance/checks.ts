// Judges one answer against the contract: a documented status fitting what was
// sent, a body valid against its schema, a list honouring its filters and page
// size; each finding names the assumption rows it rests on.
import type { ParsedRequest } from '../contract/routes.js';
import { assumedBy, type Finding } from './assumptions.js';
import type { OperationModel } from './operations.js';
import type { Json } from '../contract/json.js';
import { mergeAllOf, typesOf } from './schema-values.js';

export type RequestKind = 'valid' | 'invalid' | 'auth-missing' | 'auth-wrong' | 'discovery' | 'workflow';

function schemaProblems(op: OperationModel, status: number, received: unknown): Finding[] {
  const validate = op.responseValidator(status);
  if (!validate || validate(received)) return [];
  const base = op.responseSchemaPointer(status);
  // Ajv names the schema from the document (`partner#/paths/…`) or, inside the $ref wrapper, relative to it.
  const where = (p: string) =>
    p.startsWith('#/$ref') ? `${base}${p.slice('#/$ref'.length)}` : p.replace(/^[^#]*#/, '#');
  // The schema holding the failed keyword (Ajv's verbose errors) says whether that rule is assumed.
  return (validate.errors ?? []).map((e) => ({
    problem: `body${e.instancePath || ''} ${e.message} (schema ${where(e.schemaPath)})`,
    assumed: assumedBy(e.parentSchema, e.keyword, e.data),
  }));
}

/** The status judged for the kind of request: an expected status is assumed when its response is marked so (P3's 401). */
function statusProblems(op: OperationModel, kind: RequestKind, status: number, brokenRule: string[]): Finding[] {
  const documented = op.statuses.includes(status);
  const undocumented = `status ${status} is not documented for ${op.operationId} (documented: ${op.statuses.join(', ')})`;
  const expected = (statuses: number[]) => [...new Set(statuses.flatMap((s) => op.responseAssumptions(s)))];
  const refusals = op.statuses.filter((s) => s >= 400 && s < 500 && s !== 401);
  // A 5xx is the target failing, whatever rule the request broke: never an assumption it does not bear out.
  const found = (problem: string, assumed: string[] = []) => [{ problem, assumed: status < 500 ? assumed : [] }];
  if (kind === 'auth-missing' || kind === 'auth-wrong') {
    if (status === 401) return [];
    const problem = `a request with ${kind === 'auth-missing' ? 'no' : 'a wrong'} credential was answered ${status}, not the documented 401`;
    return found(documented ? problem : `${undocumented}; ${problem}`, expected([401]));
  }
  if (!documented)
    return found(undocumented, kind === 'invalid' ? [...new Set([...brokenRule, ...expected(refusals)])] : []);
  if (kind === 'valid' || kind === 'discovery') {
    if (status === 401) return found('a request with valid credentials was refused with 401');
    if (status === 400) return found('a request valid against the contract was refused with 400');
  }
  if (kind === 'invalid') {
    const breaking = brokenRule.length ? `an assumed rule (${brokenRule.join(', ')})` : 'a documented rule';
    if (status < 400 || status > 499)
      return found(`a request breaking ${breaking} was answered ${status}, not a documented 4xx`, brokenRule);
    if (status === 401)
      return found(`a request breaking ${breaking} (with valid credentials) was answered 401`, expected([401]));
  }
  return [];
}

/** The array of items a list answer carries, and the schema of one item. */
function listItems(op: OperationModel, doc: Json, received: unknown): { items: Json[]; item: Json } | undefined {
  const pointer = op.responseSchemaPointer(200);
  if (!pointer || !received || typeof received !== 'object') return undefined;
  const schema = mergeAllOf(doc, { $ref: pointer });
  for (const [name, prop] of Object.entries<Json>(schema?.properties ?? {})) {
    const p = mergeAllOf(doc, prop);
    const items = (received as Record<string, unknown>)[name];
    if (typesOf(p).includes('array') && Array.isArray(items)) return { items, item: mergeAllOf(doc, p.items ?? {}) };
  }
  return undefined;
}

const PAGE_SIZE = new Set(['limit', 'pageSize']);

/**
 * Where an item holds what a filter names: the field of that name, unless deprecated (a service need not fill it);
 * else a list of objects carrying it (`phoneNumbers[].phoneNumber`); else the singular (`statuses` filters `status`).
 */
function filteredField(doc: Json, item: Json, name: string) {
  const props: Record<string, Json> = item.properties ?? {};
  const direct = (field: string) => ({ name: field, values: (it: Json) => [it?.[field]] });
  if (name in props && !mergeAllOf(doc, props[name])?.deprecated) return direct(name);
  for (const [listName, raw] of Object.entries(props)) {
    const list = mergeAllOf(doc, raw);
    if (!typesOf(list).includes('array') || !(name in (mergeAllOf(doc, list.items ?? {})?.properties ?? {}))) continue;
    return {
      name: `${listName}[].${name}`,
      values: (it: Json) => (Array.isArray(it?.[listName]) ? it[listName].map((entry: Json) => entry?.[name]) : []),
    };
  }
  const field = [name, name.replace(/s$/, '')].find((f) => f in props);
  return field === undefined ? undefined : direct(field);
}

/** Each documented filter (`status=…` keeps only those statuses) or page size the answer ignored, and where. */
function listProblems(op: OperationModel, doc: Json, parsed: ParsedRequest, received: unknown): string[] {
  const list = listItems(op, doc, received);
  if (!list) return [];
  const problems: string[] = [];
  for (const [name, value] of Object.entries(parsed.query)) {
    if (PAGE_SIZE.has(name) && typeof value === 'number' && list.items.length > value) {
      problems.push(`${name}=${value} but the page has ${list.items.length} items`);
      continue;
    }
    const field = filteredField(doc, list.item, name);
    if (!field) continue;
    const wanted = Array.isArray(value) ? value : [value];
    const bad = list.items.findIndex((it) => !field.values(it).some((v) => wanted.includes(v)));
    if (bad >= 0) {
      problems.push(
        `filter ${name}=${wanted.join(',')} ignored: item ${bad} has ${field.name} ${JSON.stringify(field.values(list.items[bad]))}`,
      );
    }
  }
  return problems;
}

/** Every way the answer departs from the contract; `brokenRule`: the assumptions of the rule an invalid request broke. */
export function judgeAnswer(
  op: OperationModel,
  doc: Json,
  kind: RequestKind,
  status: number,
  received: unknown,
  parsed?: ParsedRequest,
  brokenRule: string[] = [],
): Finding[] {
  const findings = statusProblems(op, kind, status, brokenRule);
  if (!op.statuses.includes(status)) return findings;
  findings.push(...schemaProblems(op, status, received));
  if (kind === 'valid' && status >= 200 && status < 300 && parsed && !findings.length)
    findings.push(...listProblems(op, doc, parsed, received).map((problem) => ({ problem, assumed: [] })));
  return findings;
}
