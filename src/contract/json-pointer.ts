// JSON Pointers (RFC 6901) inside one document, written once so every reader
// unescapes `~1` and `~0` alike (`application/json` is the token `application~1json`).
import type { Json } from './json.js';

/** A key as a pointer token: `~` becomes `~0`, `/` becomes `~1`. */
export const escapePointerToken = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** A pointer token as the key it names: `~1` becomes `/`, then `~0` becomes `~`. */
export const unescapePointerToken = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** The value at `pointer` (`"/a/b"` or `"#/a/b"`) inside `value`; undefined where a step is missing. */
export function valueAtPointer(value: unknown, pointer: string): unknown {
  const path = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (path === '') return value;
  let at = value;
  for (const token of path.slice(1).split('/')) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[unescapePointerToken(token)];
  }
  return at;
}

/** Follows a node's chain of local `$ref`s inside `doc`; throws, naming it, on a `$ref` that leads nowhere or loops. */
export function resolveRef(doc: unknown, node: unknown): Json {
  let current = node as { $ref?: unknown } | undefined;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith('#') || hops > 64)
      throw new Error(`cannot resolve $ref ${ref}: only local references without cycles are followed`);
    const next = valueAtPointer(doc, ref) as typeof current;
    if (next === undefined) throw new Error(`$ref ${ref} names nothing in the document`);
    current = next;
  }
  return current;
}
