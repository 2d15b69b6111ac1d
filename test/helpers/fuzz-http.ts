// Sending fuzzed requests and judging the answers, for test/fuzz-sandbox.test.ts
// and test/integration/fuzz-prism.test.ts: the raw request over node:http, the documented
// operation a request target reaches (matched as the sandbox's router does),
// the schema the document declares for an answer and the answer checked
// against it, and the counts and mismatches a run prints.
import { request, type IncomingHttpHeaders } from 'node:http';
import { deref, loadBundle, pointer, validatorFor, type Json } from './openapi.js';
import type { FuzzRequest } from './request-arbitraries.js';

export { describeRequest } from './request-arbitraries.js';

/** fast-check's seed for both fuzz files: a failure replays. */
export const SEED = 20260307;

/** The bundled documents the requests are generated from and the answers judged by. */
export const docs = { v2: loadBundle('v2'), partner: loadBundle('partner') } as const;
const validators = { v2: validatorFor('v2'), partner: validatorFor('partner') } as const;
export type Api = keyof typeof docs;

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Sends the raw request with node:http (fetch would normalize the path and merge duplicate headers). */
export function send(base: string, req: FuzzRequest, headers: Record<string, string | string[]>): Promise<Answer> {
  const url = new URL(base);
  // Node sends a DELETE, GET or OPTIONS body without framing unless told its length.
  if (req.body !== undefined) headers = { ...headers, 'content-length': String(Buffer.byteLength(req.body)) };
  return new Promise((resolve, reject) => {
    let answered = false;
    const r = request(
      // agent: false, a new connection per request: a connection the server
      // closed after an answer (413 closes it) is never reused, so a dropped
      // request is a real one.
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.target,
        headers,
        agent: false,
        timeout: 15_000,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error('no answer within 15 s')));
    // A server may answer (413) and close before the whole body is written:
    // a write error after the answer arrived is not a crash.
    r.on('error', (err) => {
      if (!answered) reject(err);
    });
    if (req.body !== undefined) r.end(req.body);
    else r.end();
  });
}

export interface RouteMatch {
  pathKey: string;
  method: string;
  operation: Json;
}

/** The path's segments, each percent-decoded where it decodes (the router compares decoded segments: `/%61uth-keys` is `/auth-keys`). */
function decodedSegments(target: string): string[] {
  return target
    .split('?')[0]
    .split('/')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/** The API a request target belongs to: `/v2` and below is the v2 API, the rest the partner API. */
export function apiOfTarget(target: string): Api {
  return decodedSegments(target)[1] === 'v2' ? 'v2' : 'partner';
}

/** The documented operation a request reaches, matched as the router does (static segments before parameters). */
export function routeOf(doc: Json, method: string, target: string): RouteMatch | undefined {
  const raw = target.split('?')[0].split('/');
  const decoded = decodedSegments(target);
  let best: { match: RouteMatch; statics: number } | undefined;
  for (const [pathKey, rawItem] of Object.entries<Json>(doc.paths)) {
    const operation = deref(doc, rawItem)[method.toLowerCase()];
    if (!operation) continue;
    const template = pathKey.split('/');
    if (template.length !== raw.length) continue;
    let statics = 0;
    const ok = template.every((t, i) => {
      if (/^\{.+\}$/.test(t)) return raw[i] !== '';
      statics++;
      return t === decoded[i];
    });
    if (ok && (!best || statics > best.statics))
      best = { match: { pathKey, method: method.toLowerCase(), operation }, statics };
  }
  return best?.match;
}

/** The JSON pointer of the schema an answer must match, `null` for a declared empty answer, or a problem. */
function declaredSchema(
  api: Api,
  route: RouteMatch | undefined,
  status: number,
): { pointer: string | null } | { problem: string } {
  if (route) {
    const raw = route.operation.responses?.[String(status)];
    if (raw) {
      if (!deref(docs[api], raw).content?.['application/json']) return { pointer: null };
      const base = raw.$ref ?? pointer('paths', route.pathKey, route.method, 'responses', String(status));
      return { pointer: `${base}/content/application~1json/schema` };
    }
  }
  // An error status the operation does not declare (or no operation): the API's `Error`.
  if (status >= 400) return { pointer: pointer('components', 'schemas', 'Error') };
  return {
    problem: `status ${status} is not declared for ${route ? `${route.method.toUpperCase()} ${route.pathKey}` : 'any operation'}`,
  };
}

/** Problems of an answer against the document (empty when it conforms), and the schema it was checked against. */
export function checkAnswer(
  api: Api,
  route: RouteMatch | undefined,
  answer: Answer,
): { problems: string[]; schema: string } {
  const expected = declaredSchema(api, route, answer.status);
  if ('problem' in expected) return { problems: [expected.problem], schema: '(none)' };
  if (expected.pointer === null) {
    return {
      problems: answer.text === '' ? [] : [`status ${answer.status} is declared without a body`],
      schema: '(no body)',
    };
  }
  const schema = expected.pointer.replace(/\/content\/application~1json\/schema$/, '');
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return { problems: [`body is not JSON (content-type ${answer.headers['content-type']})`], schema };
  }
  const validate = validators[api].at(expected.pointer);
  if (validate(body)) return { problems: [], schema };
  return { problems: (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`), schema };
}

export class Counts {
  sent = 0;
  dropped = 0;
  byStatus: Record<string, number> = {};
  tags: Record<string, number> = {};
  get fiveXx() {
    return Object.entries(this.byStatus).reduce((n, [status, count]) => n + (Number(status) >= 500 ? count : 0), 0);
  }
  add(req: FuzzRequest, status: number | 'dropped') {
    this.sent++;
    for (const t of req.tags) this.tags[t] = (this.tags[t] ?? 0) + 1;
    if (status === 'dropped') this.dropped++;
    else this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
  }
  print(name: string) {
    const byClass: Record<string, number> = {};
    for (const [status, n] of Object.entries(this.byStatus))
      byClass[`${status[0]}xx`] = (byClass[`${status[0]}xx`] ?? 0) + n;
    const kinds = Object.entries(this.tags)
      .sort((a, b) => b[1] - a[1])
      .map(([t, n]) => `${t}=${n}`)
      .join(' ');
    console.log(
      `[fuzz] ${name}: ${this.sent} requests; by class ${JSON.stringify(byClass)}; by status ${JSON.stringify(this.byStatus)}; 5xx ${this.fiveXx}; dropped ${this.dropped}\n[fuzz] ${name} request kinds: ${kinds}`,
    );
  }
}

/**
 * Answers that do not match the document, grouped by what is wrong (status,
 * schema, first problem) with the first request of each group: a run shows
 * every kind of mismatch at once, not only the first one.
 */
export class Mismatches {
  private readonly groups = new Map<string, { count: number; example: string }>();
  add(key: string, example: string) {
    const group = this.groups.get(key);
    if (group) group.count++;
    else this.groups.set(key, { count: 1, example });
  }
  list(): string[] {
    return [...this.groups].map(([key, g]) => `${key} (${g.count}x), first:\n    ${g.example}`);
  }
}
