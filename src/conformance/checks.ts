// Judges one answer against the contract: the status is documented and fits
// what was sent, the body validates against the documented schema (Ajv, JSON
// Schema 2020-12), and a list honours the filters and page size it was given.
import type { ParsedRequest } from '../contract/routes.js';
import type { OperationModel } from './operations.js';
import { mergeAllOf, type Json } from './schema-values.js';

export type RequestKind = 'valid' | 'invalid' | 'auth-missing' | 'auth-wrong' | 'discovery' | 'workflow';

/** What the answer broke, each with where (schema path) or which rule. */
export type Problems = string[];

function schemaProblems(op: OperationModel, status: number, received: unknown): Problems {
  const validate = op.responseValidator(status);
  if (!validate) return [];
  if (validate(received)) return [];
  const base = op.responseSchemaPointer(status);
  // Ajv names the schema from the document (`partner#/paths/…`) or, inside the $ref wrapper, relative to it.
  const where = (p: string) =>
    p.startsWith('#/$ref') ? `${base}${p.slice('#/$ref'.length)}` : p.replace(/^[^#]*#/, '#');
  return (validate.errors ?? []).map((e) => `body${e.instancePath || ''} ${e.message} (schema ${where(e.schemaPath)})`);
}

function statusProblems(op: OperationModel, kind: RequestKind, status: number): Problems {
  const documented = op.statuses.includes(status);
  const list = op.statuses.join(', ');
  if (!documented) return [`status ${status} is not documented for ${op.operationId} (documented: ${list})`];
  if (kind === 'valid' || kind === 'discovery') {
    if (status === 401) return ['a request with valid credentials was refused with 401'];
    if (status === 400) return ['a request valid against the contract was refused with 400'];
  }
  if (kind === 'invalid') {
    if (status < 400 || status > 499)
      return [`a request breaking a documented rule was answered ${status}, not a documented 4xx`];
    if (status === 401) return ['a request breaking a documented rule (with valid credentials) was answered 401'];
  }
  if ((kind === 'auth-missing' || kind === 'auth-wrong') && status !== 401) {
    return [
      `a request with ${kind === 'auth-missing' ? 'no' : 'a wrong'} credential was answered ${status}, not the documented 401`,
    ];
  }
  return [];
}

/** Whether a schema takes arrays: `type: array`, or a list of types holding it (an array that may be `null`). */
const takesArrays = (schema: Json) =>
  schema?.type === 'array' || (Array.isArray(schema?.type) && schema.type.includes('array'));

/** The array of items a list answer carries, and the schema of one item. */
function listItems(op: OperationModel, doc: Json, received: unknown): { items: Json[]; item: Json } | undefined {
  const pointer = op.responseSchemaPointer(200);
  if (!pointer || !received || typeof received !== 'object') return undefined;
  const schema = mergeAllOf(doc, { $ref: pointer });
  for (const [name, prop] of Object.entries<Json>(schema?.properties ?? {})) {
    const p = mergeAllOf(doc, prop);
    const items = (received as Record<string, unknown>)[name];
    if (takesArrays(p) && Array.isArray(items)) return { items, item: mergeAllOf(doc, p.items ?? {}) };
  }
  return undefined;
}

const PAGE_SIZE = new Set(['limit', 'pageSize']);

/**
 * Where an item holds what a filter names, and its values there: the field
 * of that name; else (or when that field is deprecated, which a service need
 * not fill) a list of objects carrying the name (`phoneNumber` filters
 * `phoneNumbers[].phoneNumber`); else the singular (`statuses` filters `status`).
 */
function filteredField(
  doc: Json,
  item: Json,
  name: string,
): { name: string; values: (it: Json) => unknown[] } | undefined {
  const props: Record<string, Json> = item.properties ?? {};
  const direct = (field: string) => ({ name: field, values: (it: Json) => [it?.[field]] });
  if (name in props && !mergeAllOf(doc, props[name])?.deprecated) return direct(name);
  for (const [listName, raw] of Object.entries(props)) {
    const list = mergeAllOf(doc, raw);
    if (!takesArrays(list) || !(name in (mergeAllOf(doc, list.items ?? {})?.properties ?? {}))) continue;
    return {
      name: `${listName}[].${name}`,
      values: (it) => (Array.isArray(it?.[listName]) ? it[listName].map((entry: Json) => entry?.[name]) : []),
    };
  }
  const field = [name, name.replace(/s$/, '')].find((f) => f in props);
  return field === undefined ? undefined : direct(field);
}

/** A documented filter (`status=…` keeps only those statuses) or page size the answer ignored. */
function listProblems(op: OperationModel, doc: Json, parsed: ParsedRequest, received: unknown): Problems {
  const list = listItems(op, doc, received);
  if (!list) return [];
  const problems: Problems = [];
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

/** Every way the answer departs from the contract, for a request of this kind. */
export function checkAnswer(
  op: OperationModel,
  doc: Json,
  kind: RequestKind,
  status: number,
  received: unknown,
  parsed?: ParsedRequest,
): Problems {
  const problems = statusProblems(op, kind, status);
  if (!op.statuses.includes(status)) return problems;
  problems.push(...schemaProblems(op, status, received));
  if (kind === 'valid' && status >= 200 && status < 300 && parsed && !problems.length)
    problems.push(...listProblems(op, doc, parsed, received));
  return problems;
}
