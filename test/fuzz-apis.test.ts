// Property-based fuzzing of both APIs (issue 7, part 4). Requests are
// generated from the bundled documents (every operation: method, path
// parameters, query, headers, JSON body from the schemas; see
// helpers/request-arbitraries.ts) and mutated: wrong types, out-of-bound
// values, missing required fields, unknown enum values, garbage and non-JSON
// bodies, bodies of ~100 KB and over 1 MiB, odd headers, odd paths, repeated
// or wrongly joined query parameters. They go to the sandbox (with response
// validation on) and to the Prism mocks.
//
// The sandbox must never answer 5xx, never drop a connection, answer every
// error with the error body the document declares for that status, every
// success with the declared schema, and record no contract violation.
//
// Which API an answer belongs to follows the path the router sees
// (percent-decoded): `/v2` and below is the v2 API, everything else the
// partner API (served at `/`), so `/V2/...` or `//v2/...` get the partner's
// error body.
//
// Prism is a canned mock: it answers from the documents' examples and makes
// up its own bodies for what the document does not describe (422 or 400
// without an example, `{"error":{"code":"invalid_json",...}}`, problem+json
// 404 for unknown paths, 405, 500 for an unparseable Content-Type, ...). So of
// Prism we only require that it answers every request (no dropped
// connection), and that where its answer is one of the operation's documented
// examples (for 400 and 401, and for 2xx) the example is the one of that
// status and valid against the schema. Its statuses are counted and printed,
// not asserted. Prism 5.14.2 exits on two kinds of input (the last test pins
// both on Prism processes of its own); the fuzz leaves those two inputs out,
// so it can use the run's shared mocks (test/helpers/mock-servers.ts) and
// start no Prism of its own. A new input that stops Prism fails the fuzz
// as a dropped request, and the mock tests after it.
import { createServer, request, Agent, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort, mockDocumentOf, startPrism } from '../scripts/lib/prism.mjs';
import { startSandbox, type Sandbox } from '../src/sandbox/server.js';
import { deref, loadBundle, pointer, validatorFor, type Json } from './helpers/openapi.js';
import { headersFor, requestsForDocument, type FuzzRequest } from './helpers/request-arbitraries.js';

const SEED = 20260307;
const RUNS = { sandboxV2: 1200, sandboxPartner: 2800, prismV2: 400, prismPartner: 600 };

const authKey = 'sbx_fuzz_key_5e2a9c7d1b';
const accessToken = 'v2_fuzz_token_8f3b6d';
const docs = { v2: loadBundle('v2'), partner: loadBundle('partner') } as const;
const validators = { v2: validatorFor('v2'), partner: validatorFor('partner') } as const;
type Api = keyof typeof docs;

// ---------------------------------------------------------------------------
// Sending
// ---------------------------------------------------------------------------

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

// A new connection per request: a connection the server closed after an
// answer (413 closes it) is never reused, so a dropped request is a real one.
const agent = new Agent({ keepAlive: false });

/** Sends the raw request with node:http (fetch would normalize the path and merge duplicate headers). */
function send(base: string, req: FuzzRequest, headers: Record<string, string | string[]>): Promise<Answer> {
  const url = new URL(base);
  // Node sends a DELETE, GET or OPTIONS body without framing unless told its length.
  if (req.body !== undefined) headers = { ...headers, 'content-length': String(Buffer.byteLength(req.body)) };
  return new Promise((resolve, reject) => {
    let answered = false;
    const r = request(
      { host: url.hostname, port: url.port, method: req.method, path: req.target, headers, agent, timeout: 15_000 },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
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

// ---------------------------------------------------------------------------
// What the documents declare for an answer
// ---------------------------------------------------------------------------

interface RouteMatch {
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
function apiOfTarget(target: string): Api {
  return decodedSegments(target)[1] === 'v2' ? 'v2' : 'partner';
}

/** The documented operation a request reaches, matched as the router does (static segments before parameters). */
function routeOf(doc: Json, method: string, target: string): RouteMatch | undefined {
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
    if (ok && (!best || statics > best.statics)) best = { match: { pathKey, method: method.toLowerCase(), operation }, statics };
  }
  return best?.match;
}

/** The JSON pointer of the schema an answer must match, `null` for a declared empty answer, or a problem. */
function declaredSchema(api: Api, route: RouteMatch | undefined, status: number): { pointer: string | null } | { problem: string } {
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
  return { problem: `status ${status} is not declared for ${route ? `${route.method.toUpperCase()} ${route.pathKey}` : 'any operation'}` };
}

/** Problems of an answer against the document (empty when it conforms), and the schema it was checked against. */
function checkAnswer(api: Api, route: RouteMatch | undefined, answer: Answer): { problems: string[]; schema: string } {
  const expected = declaredSchema(api, route, answer.status);
  if ('problem' in expected) return { problems: [expected.problem], schema: '(none)' };
  if (expected.pointer === null) {
    return { problems: answer.text === '' ? [] : [`status ${answer.status} is declared without a body`], schema: '(no body)' };
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

function describeRequest(req: FuzzRequest, headers: Record<string, string | string[]>): string {
  const text = req.body === undefined ? '' : String(req.body);
  const body = req.body === undefined ? '(none)' : text.length > 300 ? `${req.body.length} bytes: ${JSON.stringify(text.slice(0, 120))}...` : JSON.stringify(text);
  const shownHeaders = JSON.stringify(headers, (_k, v) => (typeof v === 'string' && v.length > 120 ? `${v.slice(0, 120)}...` : v));
  const target = req.target.length > 300 ? `${req.target.slice(0, 200)}... (${req.target.length} chars)` : req.target;
  return `${req.method} ${target}\n    headers ${shownHeaders}\n    body ${body}\n    generated from ${req.api} ${req.operationId} [${req.tags.join(', ')}]`;
}

// ---------------------------------------------------------------------------
// Counting
// ---------------------------------------------------------------------------

class Counts {
  sent = 0;
  byClass: Record<string, number> = {};
  byStatus: Record<string, number> = {};
  fiveXx = 0;
  dropped = 0;
  tags: Record<string, number> = {};
  add(req: FuzzRequest, status: number | 'dropped') {
    this.sent++;
    for (const t of req.tags) this.tags[t] = (this.tags[t] ?? 0) + 1;
    if (status === 'dropped') {
      this.dropped++;
      return;
    }
    const cls = `${Math.floor(status / 100)}xx`;
    this.byClass[cls] = (this.byClass[cls] ?? 0) + 1;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
    if (status >= 500) this.fiveXx++;
  }
  print(name: string) {
    const kinds = Object.entries(this.tags)
      .sort((a, b) => b[1] - a[1])
      .map(([t, n]) => `${t}=${n}`)
      .join(' ');
    console.log(
      `[fuzz] ${name}: ${this.sent} requests; by class ${JSON.stringify(this.byClass)}; by status ${JSON.stringify(this.byStatus)}; 5xx ${this.fiveXx}; dropped ${this.dropped}\n[fuzz] ${name} request kinds: ${kinds}`,
    );
  }
}

/**
 * Answers that do not match the document, grouped by what is wrong (status,
 * schema, first problem) with the first request of each group: a run shows
 * every kind of mismatch at once, not only the first one.
 */
class Mismatches {
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

// ---------------------------------------------------------------------------
// The sandbox
// ---------------------------------------------------------------------------

describe('fuzzing the sandbox (validateResponses on)', () => {
  let sandbox: Sandbox;
  // Webhook URLs the fuzzer sets with PUT /partners point here, never off the machine.
  const sink = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
  let sinkUrl = '';
  const knownIds: Record<string, string[]> = {};
  const v2Ids = Object.values<Json>(docs.v2.components.examples)
    .map((e) => e.value)
    .flatMap((v) => (Array.isArray(v?.items) ? v.items : [v]))
    .filter((v) => typeof v?.id === 'string')
    .map((v) => v.id as string);

  beforeAll(async () => {
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
    sandbox = await startSandbox({ port: 0, authKey, accessToken, validateResponses: true });
    const seeded = sandbox.partner.seed();
    knownIds.verificationId = seeded.verificationIds;
    knownIds.userId = seeded.userIds;
  });
  afterAll(async () => {
    await sandbox?.close();
    await new Promise((resolve) => sink.close(resolve));
  });

  /** The sandbox still answers a plain valid call. */
  const alive = async () => {
    try {
      const res = await fetch(`${sandbox.url}/partners`, { headers: { 'X-Auth-Key': sandbox.partner.activeAuthKey() } });
      return res.status === 200;
    } catch {
      return false;
    }
  };

  const fuzz = async (api: Api, numRuns: number) => {
    const counts = new Counts();
    const mismatches = new Mismatches();
    const uri = fc.constantFrom(`${sinkUrl}/hooks/identity`, `${sinkUrl}/hooks?partner=1`, 'urn:isbn:0451450523', 'mailto:ops@example.com');
    const arb = requestsForDocument(docs[api], api, { uri, knownIds: api === 'v2' ? { id: v2Ids } : knownIds });
    try {
      await fc.assert(
        fc.asyncProperty(arb, async (req) => {
          // The credential valid now: a fuzzed POST /auth-keys rotates the key.
          const credential = api === 'v2' ? accessToken : sandbox.partner.activeAuthKey();
          const headers = headersFor(req, api === 'v2' ? 'bearer' : 'authKey', credential);
          let answer: Answer;
          try {
            answer = await send(sandbox.url, req, headers);
          } catch (err) {
            counts.add(req, 'dropped');
            throw new Error(`the sandbox dropped the request (${(err as Error).message}); still answering: ${await alive()}\n    ${describeRequest(req, headers)}`);
          }
          counts.add(req, answer.status);
          const shown = `${describeRequest(req, headers)}\n    answered ${answer.status} ${answer.text.slice(0, 300)}`;
          // A crash, a 5xx or a violation the sandbox saw itself stops the run at once.
          if (answer.status >= 500) throw new Error(`the sandbox answered ${answer.status}\n    ${shown}\n    violations: ${sandbox.violations.join(' | ')}`);
          if (sandbox.violations.length) throw new Error(`sandbox.violations: ${sandbox.violations.join(' | ')}\n    ${shown}`);
          const owner = apiOfTarget(req.target);
          const route = routeOf(docs[owner], req.method, req.target);
          const { problems, schema } = checkAnswer(owner, route, answer);
          if (answer.status < 300 && problems.length) throw new Error(`a success answer does not match ${schema}: ${problems.join('; ')}\n    ${shown}`);
          if (problems.length) mismatches.add(`${answer.status} on ${owner} ${route?.pathKey ?? '(no operation)'} does not match ${schema}: ${problems[0]}`, shown);
        }),
        { numRuns, seed: SEED, endOnFailure: true },
      );
    } finally {
      counts.print(`sandbox ${api}`);
    }
    expect(counts.sent).toBe(numRuns);
    expect(counts.fiveXx).toBe(0);
    expect(counts.dropped).toBe(0);
    expect(await alive()).toBe(true);
    expect(sandbox.violations).toEqual([]);
    // Every error answer in the shape the document declares for its status.
    expect(mismatches.list()).toEqual([]);
    return counts;
  };

  // Fails as of this writing (issue 7, part 4 report): answers made by Node's
  // HTTP parser or Fastify before the sandbox's handlers (a raw non-ASCII byte
  // in the path: 400 "Client Error"; a request line over 16 KiB: 431; a
  // malformed percent-escape: 400 FST_ERR_BAD_URL), and the 404 of
  // `POST /%762/verifications/`, are not in the v2 error shape (no `code`, no
  // `details`). The partner's `Error` needs only `message`, so they pass there.
  it(`v2: ${RUNS.sandboxV2} generated and mutated requests, no 5xx, every answer as documented`, async () => {
    const counts = await fuzz('v2', RUNS.sandboxV2);
    // The run reached the handlers and the validation, not only the credential check.
    expect(counts.byStatus['200']).toBeGreaterThan(RUNS.sandboxV2 / 10);
    expect(counts.byStatus['400']).toBeGreaterThan(RUNS.sandboxV2 / 10);
    expect(counts.byStatus['401']).toBeGreaterThan(0);
  });

  it(`partner: ${RUNS.sandboxPartner} generated and mutated requests, no 5xx, every answer as documented`, async () => {
    const counts = await fuzz('partner', RUNS.sandboxPartner);
    expect((counts.byStatus['200'] ?? 0) + (counts.byStatus['201'] ?? 0)).toBeGreaterThan(RUNS.sandboxPartner / 10);
    expect(counts.byStatus['400']).toBeGreaterThan(RUNS.sandboxPartner / 10);
    for (const status of ['401', '404', '409', '413', '415']) expect(counts.byStatus[status], status).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------
// The Prism mocks
// ---------------------------------------------------------------------------

/** The documented example values of an operation's answer with this status. */
function examplesOf(api: Api, route: RouteMatch, status: number): unknown[] {
  const media = deref(docs[api], route.operation.responses?.[String(status)])?.content?.['application/json'];
  if (!media) return [];
  return [...Object.values<Json>(media.examples ?? {}).map((e) => deref(docs[api], e).value), ...(media.example === undefined ? [] : [media.example])];
}

const MIME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*(;.*)?$/;
const decodes = (segment: string) => {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
};

/**
 * The two inputs on which Prism 5.14.2 exits instead of answering (the last
 * test pins both): a malformed percent-escape in the path (`%zz`, `%FF`;
 * uri-template-lite's decodeURIComponent throws), and a body with an
 * unparseable Content-Type sent to an operation that takes no body
 * (whatwg-mimetype throws).
 */
function crashesPrism(api: Api, req: FuzzRequest, headers: Record<string, string | string[]>): boolean {
  if (!req.target.split('?')[0].split('/').every(decodes)) return true;
  const contentType = headers['content-type'];
  const route = routeOf(docs[api], req.method, req.target);
  return req.body !== undefined && typeof contentType === 'string' && !MIME.test(contentType) && !route?.operation.requestBody;
}


describe('fuzzing the Prism mocks', () => {
  const mockUrls = inject('mockUrls');

  const exampleIds = (api: Api, name: string) =>
    Object.values<Json>(docs[api].components.parameters)
      .filter((p) => p.in === 'path' && p.name === name && typeof p.example === 'string')
      .map((p) => p.example as string);

  const fuzz = async (api: Api, numRuns: number) => {
    const counts = new Counts();
    const arb = requestsForDocument(docs[api], api, {
      knownIds: api === 'v2' ? { id: exampleIds('v2', 'id') } : { verificationId: exampleIds('partner', 'verificationId'), userId: exampleIds('partner', 'userId') },
      weights: { huge: 1 },
    })
      // Prism accepts any non-empty credential; the variants still exercise its security check.
      .map((req) => ({ req, headers: headersFor(req, api === 'v2' ? 'bearer' : 'authKey', 'any-credential-1234') }))
      .filter(({ req, headers }) => !crashesPrism(api, req, headers));
    let examples = 0;
    let ownBodies = 0;
    const base = mockUrls[api];
    try {
      await fc.assert(
        fc.asyncProperty(arb, async ({ req, headers }) => {
          let answer: Answer;
          try {
            answer = await send(base, req, headers);
          } catch (err) {
            counts.add(req, 'dropped');
            throw new Error(`Prism dropped the request (${(err as Error).message})\n    ${describeRequest(req, headers)}`);
          }
          counts.add(req, answer.status);
          // Each Prism serves one document.
          const route = routeOf(docs[api], req.method, req.target);
          let body: unknown;
          try {
            body = JSON.parse(answer.text);
          } catch {
            body = undefined;
          }
          const documented = route ? examplesOf(api, route, answer.status) : [];
          const checked = [400, 401].includes(answer.status) || (answer.status >= 200 && answer.status < 300);
          if (checked && documented.some((e) => isDeepStrictEqual(e, body))) {
            examples++;
            const { problems, schema } = checkAnswer(api, route, answer);
            if (problems.length) throw new Error(`Prism's example does not match ${schema}: ${problems.join('; ')}\n    ${describeRequest(req, headers)}`);
          } else {
            ownBodies++;
          }
        }),
        { numRuns, seed: SEED, endOnFailure: true },
      );
    } finally {
      counts.print(`prism ${api}`);
      console.log(`[fuzz] prism ${api}: ${examples} answers were documented examples (validated), ${ownBodies} were Prism's own (not asserted)`);
    }
    expect(counts.sent).toBe(numRuns);
    expect(counts.dropped).toBe(0);
    expect(examples).toBeGreaterThan(numRuns / 10);
  };

  it(`v2: ${RUNS.prismV2} requests, every one answered`, async () => {
    await fuzz('v2', RUNS.prismV2);
  });

  it(`partner: ${RUNS.prismPartner} requests, every one answered`, async () => {
    await fuzz('partner', RUNS.prismPartner);
  });

  // Pins the two Prism 5.14.2 crashes the fuzz leaves out, on the smaller v2
  // document (Prism starts sooner; the crashes do not depend on the API).
  // When a Prism upgrade makes this fail, drop `crashesPrism` and this test.
  it.each<[string, { method: string; path: string; headers: Record<string, string>; body?: string }]>([
    ['a malformed percent-escape in a path parameter', { method: 'GET', path: '/v2/verifications/%zz', headers: { authorization: 'Bearer k' } }],
    ['a body with an unparseable Content-Type on an operation without a body', { method: 'GET', path: '/v2/verifications/', headers: { authorization: 'Bearer k', 'content-type': 'abc' }, body: '{}' }],
  ])('Prism 5.14.2 still exits on %s (known; left out of the fuzz above)', async (_name, input) => {
    const prism = await startPrism({ document: mockDocumentOf('v2'), port: await freePort(), logLevel: 'silent' });
    try {
      const url = new URL(prism.url);
      await new Promise<void>((resolve) => {
        const r = request({ host: url.hostname, port: url.port, method: input.method, path: input.path, headers: input.headers, agent }, (res) => res.resume().on('end', resolve));
        r.on('error', () => resolve());
        r.end(input.body);
      });
      const exited = await Promise.race([prism.exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
      expect(exited).toBe(true);
    } finally {
      await prism.stop();
    }
  });
});

afterAll(() => agent.destroy());
