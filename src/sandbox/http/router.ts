// Finds the documented operation a request target names. Paths match exactly
// as the documents write them: a trailing slash is part of the path
// (`GET /v2/verifications/`), duplicate slashes are not merged, case counts.
// Each segment is percent-decoded before it is compared (`/%61uth-keys` is
// `/auth-keys`; `%2F` stays inside its segment). At each segment a static
// name wins over a parameter, falling back to the parameter when the rest of
// the path does not match. A parameter may be empty (the contract answers
// `REQUIRED`) but not longer than MAX_PARAM_LENGTH characters decoded.

/** find-my-way's default (the router of fastify and of many Node servers): a common bound, not one the documents give (S23). */
export const MAX_PARAM_LENGTH = 100;

interface Node<T> {
  statics: Map<string, Node<T>>;
  param?: Node<T>;
  leaf?: { value: T; paramAt: [number, string][] };
}

export type Lookup<T> =
  | { found: true; value: T; params: Record<string, string>; query: string }
  /**
   * A target that is not in origin form (`/path?query`: absolute-form
   * `http://host/path` is for proxies, which the sandbox is not), whose path
   * cannot be decoded, or whose only match has a parameter over the bound.
   */
  | { found: false; malformed: boolean };

const node = <T>(): Node<T> => ({ statics: new Map() });

export class Router<T> {
  private readonly trees = new Map<string, Node<T>>();

  /** `template` as documented: `/verifications/{verificationId}/scan`. */
  add(method: string, template: string, value: T): void {
    let at = this.trees.get(method) ?? node<T>();
    this.trees.set(method, at);
    const paramAt: [number, string][] = [];
    template.split('/').forEach((segment, i) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      if (name !== undefined) {
        paramAt.push([i, name]);
        at = at.param ??= node<T>();
      } else {
        let next = at.statics.get(segment);
        if (!next) at.statics.set(segment, (next = node<T>()));
        at = next;
      }
    });
    if (at.leaf) throw new Error(`router: ${method} ${template} is declared twice`);
    at.leaf = { value, paramAt };
  }

  lookup(method: string, target: string): Lookup<T> {
    if (!target.startsWith('/')) return { found: false, malformed: true };
    const tree = this.trees.get(method);
    const url = target;
    if (!tree) return { found: false, malformed: false };
    // The path ends at the query or a fragment; the query at a fragment.
    let end = 0;
    while (end < url.length && url[end] !== '?' && url[end] !== '#') end++;
    const hash = url.indexOf('#', end);
    const query = url[end] === '?' ? url.slice(end + 1, hash === -1 ? undefined : hash) : '';
    const segments = url.slice(0, end).split('/');
    for (let i = 0; i < segments.length; i++) {
      if (!segments[i].includes('%')) continue;
      try {
        segments[i] = decodeURIComponent(segments[i]);
      } catch {
        return { found: false, malformed: true };
      }
    }
    const state = { tooLong: false };
    const leaf = walk(tree, segments, 0, state);
    if (!leaf) return { found: false, malformed: state.tooLong };
    const params: Record<string, string> = {};
    for (const [i, name] of leaf.paramAt) params[name] = segments[i];
    return { found: true, value: leaf.value, params, query };
  }
}

function walk<T>(at: Node<T>, segments: string[], i: number, state: { tooLong: boolean }): Node<T>['leaf'] {
  if (i === segments.length) return at.leaf;
  const byName = at.statics.get(segments[i]);
  const found = byName && walk(byName, segments, i + 1, state);
  if (found || !at.param) return found;
  if (segments[i].length > MAX_PARAM_LENGTH) {
    state.tooLong = true;
    return undefined;
  }
  return walk(at.param, segments, i + 1, state);
}
