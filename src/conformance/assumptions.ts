// Tells the documents' rules from the contract's assumptions: a schema names
// its assumed rules by keyword in `x-assumed` (`{ integer: P7 }`), a response
// its assumed status in its description (`Assumed ([P3](…))`), a workflow
// criterion in its own `x-assumed`; a rule named nowhere is the documents'.
import type { Json } from '../contract/json.js';

/** What an answer broke, and the assumption rows the broken rule rests on (none: the documents' rule). */
export interface Finding {
  problem: string;
  assumed: string[];
}

/** Rows of an `x-assumed` value: one row (`P7`) or a list of them. */
export function rowsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The rows a description marks as assumed: `Assumed ([P3](assumptions.html#P3))`. */
export function markedRows(description: unknown): string[] {
  if (typeof description !== 'string') return [];
  return [...new Set([...description.matchAll(/Assumed \(\[([A-Z]\d+)\]/g)].map((m) => m[1]))];
}

/** `x-assumed` of the parts of an `allOf`, merged (a later part's row for a rule wins). */
export function mergeAssumed(parts: Json[]): Json {
  const merged = Object.assign({}, ...parts.map((p) => (p && typeof p === 'object' ? p['x-assumed'] : undefined)));
  return Object.keys(merged).length ? merged : undefined;
}

/** The rows the rule of `keyword` (an Ajv error's, or the one a mutation broke) rests on in `schema`. */
export function assumedBy(schema: Json, keyword: string, value?: unknown): string[] {
  // A fraction where a whole number is expected breaks "integer", not the documented "number".
  const fraction = keyword === 'type' && typeof value === 'number' && !Number.isInteger(value);
  const marks = schema && typeof schema === 'object' ? schema['x-assumed'] : undefined;
  return marks && typeof marks === 'object' && !Array.isArray(marks)
    ? rowsOf(marks[fraction ? 'integer' : keyword])
    : [];
}
