// Finds the documented operation a request target names: paths match as documented (slashes and case count) once each
// segment is percent-decoded, a static segment before a parameter; about 40 routes, scanned in turn as Prism does.
import { orElse } from './door.js';

/** find-my-way's default (fastify's router): a common bound, not one the documents give (S23). */
const MAX_PARAM_LENGTH = 100;

/** A template's segments: a static name, or a parameter's `{ name }`. */
type Template = (string | { name: string })[];

export type Lookup<T> =
  | { found: true; value: T; params: Record<string, string>; query: string }
  // Malformed: not in origin form (absolute form is for proxies), undecodable, or a parameter over the bound.
  | { found: false; malformed: boolean };

export class Router<T> {
  private readonly routes = new Map<string, { template: Template; shape: string; order: string; value: T }[]>();

  /** `path` as documented: `/verifications/{verificationId}/scan`. */
  add(method: string, path: string, value: T): void {
    const template: Template = path.split('/').map((s) => (/^\{.+\}$/.test(s) ? { name: s.slice(1, -1) } : s));
    // Parameter names aside: `/users/{id}` and `/users/{userId}` are one route.
    const shape = JSON.stringify(template.map((s) => (typeof s === 'string' ? s : 0)));
    const routes = this.routes.get(method) ?? [];
    if (routes.some((r) => r.shape === shape)) throw new Error(`router: ${method} ${path} is declared twice`);
    // Static (0) before parameter (1), segment by segment: the first route that matches is the one to take.
    routes.push({ template, shape, order: template.map((s) => (typeof s === 'string' ? '0' : '1')).join(''), value });
    routes.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
    this.routes.set(method, routes);
  }

  lookup(method: string, target: string): Lookup<T> {
    if (!target.startsWith('/')) return { found: false, malformed: true };
    const routes = this.routes.get(method);
    if (!routes) return { found: false, malformed: false };
    // The path ends at the query or a fragment; the query at a fragment.
    const [, path, query = ''] = /^([^?#]*)(?:\?([^#]*))?/.exec(target)!;
    const segments = orElse(() => path.split('/').map((s) => (s.includes('%') ? decodeURIComponent(s) : s)), undefined);
    if (!segments) return { found: false, malformed: true };
    let tooLong = false;
    for (const { template, value } of routes) {
      const params = match(template, segments);
      if (params === 'tooLong') tooLong = true;
      else if (params) return { found: true, value, params, query };
    }
    return { found: false, malformed: tooLong };
  }
}

/** The parameters when `segments` match; 'tooLong' when a parameter over the bound comes before any mismatch. */
function match(template: Template, segments: string[]): Record<string, string> | 'tooLong' | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length && i < segments.length; i++) {
    const part = template[i];
    if (typeof part === 'string') {
      if (part !== segments[i]) return undefined;
    } else if (segments[i] === '' && i === segments.length - 1) {
      return undefined;
    } else if (segments[i].length > MAX_PARAM_LENGTH) {
      return 'tooLong';
    } else params[part.name] = segments[i];
  }
  return template.length === segments.length ? params : undefined;
}
