// Whole HTTP requests per operation of a bundled document, with odd paths,
// queries, headers and bodies, for the fuzz tests. The values come from
// src/conformance/schema-values.ts, shared with the conformance runner.
import fc from 'fast-check';
import { loadApi, type ApiName, type OperationModel, type ParamModel } from '../../src/conformance/operations.js';
import type { Json } from './openapi.js';
import {
  encode,
  mutatedValueFor,
  mutationsOf,
  valueFor,
  type SchemaArbitraryOptions,
} from '../../src/conformance/schema-values.js';

export { mutatedValueFor, valueFor } from '../../src/conformance/schema-values.js';

/**
 * How the credential is sent, by variant: the headers it makes from the
 * credential valid at send time, the API's scheme (a bearer token in
 * `Authorization` for v2, a key in `X-Auth-Key` for partner) and the
 * request's garbage.
 */
const AUTH_HEADERS = {
  valid: (a) => ({ [a.name]: a.good }),
  missing: () => ({}),
  empty: (a) => ({ [a.name]: '' }),
  wrong: (a) => ({ [a.name]: a.bearer ? `Bearer ${a.credential}x` : a.credential.slice(0, -1) }),
  garbage: (a) => ({ [a.name]: a.garbage }),
  'duplicate-valid': (a) => ({ [a.name]: [a.good, a.good] }),
  'duplicate-mixed': (a) => ({ [a.name]: [a.good, a.garbage] }),
  padded: (a) => ({ [a.name]: a.bearer ? `Bearer  ${a.credential}` : `${a.credential} \t` }),
  'lowercase-scheme': (a) => ({ [a.name]: a.bearer ? `bearer ${a.credential}` : a.credential.toUpperCase() }),
  'no-scheme': (a) => ({ [a.name]: a.bearer ? a.credential : `Bearer ${a.credential}` }),
  'basic-scheme': (a) => ({ authorization: `Basic ${Buffer.from(`user:${a.credential}`).toString('base64')}` }),
  // The credential of the other API's scheme.
  'other-header': (a) => ({
    [a.bearer ? 'x-auth-key' : 'authorization']: a.bearer ? a.credential : `Bearer ${a.credential}`,
  }),
} satisfies Record<string, (a: AuthParts) => Record<string, string | string[]>>;
interface AuthParts {
  name: string;
  good: string;
  credential: string;
  bearer: boolean;
  garbage: string;
}
type AuthVariant = keyof typeof AUTH_HEADERS;

/** The Content-Type sent, by variant (`garbage`: the request's own). */
const CONTENT_TYPES = {
  json: 'application/json',
  'json-charset': 'application/json; charset=utf-8',
  missing: undefined,
  text: 'text/plain',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data; boundary=xyz',
  uppercase: 'APPLICATION/JSON',
  jsonx: 'application/jsonx',
  garbage: undefined,
  duplicate: ['application/json', 'text/plain'],
} satisfies Record<string, string | string[] | undefined>;
type ContentTypeVariant = keyof typeof CONTENT_TYPES;

export interface FuzzRequest {
  api: string;
  /** The operation the request was made from (it may reach another route, or none). */
  operationId: string;
  method: string;
  /** Raw request target: path and query, as sent on the request line. */
  target: string;
  auth: AuthVariant;
  /** Garbage for the `garbage` and `duplicate-mixed` variants. */
  authGarbage: string;
  contentType: ContentTypeVariant;
  contentTypeGarbage: string;
  body: string | Buffer | undefined;
  /** Labels of what was done to the request, for the statistics. */
  tags: string[];
}

export interface RequestArbitraryOptions extends SchemaArbitraryOptions {
  /** Relative integer weights of the kinds of body (defaults valid 12, mutated 8, huge 2; garbage 4, re-spaced 2, missing 2). */
  weights?: Partial<Record<'valid' | 'mutated' | 'huge', number>>;
}

// Latin-1 printable characters: what a header value or raw request line may carry in Node.
const latin1Char = fc
  .oneof(fc.integer({ min: 0x21, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }))
  .map((c) => String.fromCharCode(c));
const latin1 = (maxLength: number) => fc.string({ unit: latin1Char, minLength: 1, maxLength });

/** Path segments a router may mistake: traversal, broken escapes, object property names, odd separators. */
const ODD_PATH_SEGMENTS = [
  ...['%2F', 'a%2Fb', '%2e%2e', '..', '.', '%00', '%', '%zz', '%C3%28', '%FF', '%E2%82', 'a;b=c'],
  ...['null', 'undefined', '__proto__', 'constructor', '%20', '%09x'],
];
/** Query values a lenient number, boolean or list parser would take. */
const ODD_QUERY_VALUES = [
  ...['', '%31', '1e1', '0x10', '%201', 'Infinity', 'NaN', '-0', '1.0', '%zz', '+1'],
  ...['true', '[]', '{}', '1,2'],
];

/** How one path parameter is written: a known id, a generated value, or something odd. */
function pathValueArb(
  doc: Json,
  p: ParamModel,
  opts: RequestArbitraryOptions,
): fc.Arbitrary<{ text: string; tag?: string }> {
  const known = opts.knownIds?.[p.name] ?? [];
  const normal = valueFor(doc, p.schema, opts).map((v) => ({ text: encode(String(v)) }));
  const odd = fc.oneof(
    fc.constantFrom(...ODD_PATH_SEGMENTS).map((text) => ({ text, tag: 'odd-path' })),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map((s) => ({ text: encode(s), tag: 'unicode-path' })),
    // Latin-1 bytes sent raw on the request line: not UTF-8.
    fc
      .string({
        unit: fc.integer({ min: 0xa0, max: 0xff }).map((c) => String.fromCharCode(c)),
        minLength: 1,
        maxLength: 6,
      })
      .map((text) => ({ text, tag: 'raw-latin1-path' })),
    fc.constantFrom(300, 4000, 20_000).map((n) => ({ text: 'a'.repeat(n), tag: `long-id-${n}` })),
    fc.uuid().map((u) => ({ text: u.toUpperCase(), tag: 'odd-path' })),
  );
  return fc.oneof(
    ...(known.length
      ? [{ weight: 5, arbitrary: fc.constantFrom(...known).map((text) => ({ text: encode(text) })) }]
      : []),
    { weight: 3, arbitrary: normal },
    { weight: 2, arbitrary: odd },
  );
}

type QueryPart = { text: string; tag?: string };

/** One query parameter written as `name=value` pairs (possibly none), valid or broken. */
function queryParamArb(doc: Json, p: ParamModel, opts: RequestArbitraryOptions): fc.Arbitrary<QueryPart[]> {
  const name = encode(p.name);
  if (p.array) {
    const items = valueFor(doc, p.schema.items ?? {}, opts);
    const list = fc.array(items, { minLength: 1, maxLength: 3 });
    const wellFormed = list.map((vs) =>
      p.explode
        ? vs.map((v) => ({ text: `${name}=${encode(String(v))}` }))
        : [{ text: `${name}=${vs.map((v) => encode(String(v))).join(',')}` }],
    );
    const itemMutations = mutationsOf(doc, p.schema.items ?? {}, opts);
    const broken = fc.oneof(
      // The other serialization than the document's.
      list
        .filter((vs) => vs.length > 1)
        .map((vs) =>
          p.explode
            ? [{ text: `${name}=${vs.map((v) => encode(String(v))).join(',')}`, tag: 'query-comma-joined-wrongly' }]
            : vs.map((v) => ({ text: `${name}=${encode(String(v))}`, tag: 'query-repeated-wrongly' })),
        ),
      fc
        .constantFrom(',', ',,', '', '%2C', ' , ')
        .map((s) => [{ text: `${name}=${s === ' , ' ? encode(s) : s}`, tag: 'query-empty-items' }]),
      ...(itemMutations.length
        ? [
            fc.oneof(...itemMutations).map((bad) => [
              { text: `${name}=${encode(JSON.stringify(bad.value) ?? '')}`, tag: `query-${bad.mutation}` },
              {
                text: `${name}=${encode(typeof bad.value === 'string' ? bad.value : String(bad.value))}`,
                tag: `query-${bad.mutation}`,
              },
            ]),
          ]
        : []),
    );
    return fc.oneof({ weight: 3, arbitrary: wellFormed }, { weight: 2, arbitrary: broken });
  }
  const scalar = valueFor(doc, p.schema, opts).map((v) => encode(String(v)));
  const mutations = mutationsOf(doc, p.schema, opts);
  const broken = fc.oneof(
    fc
      .tuple(scalar, scalar)
      .map(([a, b]): QueryPart[] => [{ text: `${name}=${a}`, tag: 'query-repeated' }, { text: `${name}=${b}` }]),
    fc.constantFrom(...ODD_QUERY_VALUES).map((s): QueryPart[] => [{ text: `${name}=${s}`, tag: 'query-odd-text' }]),
    fc.constant<QueryPart[]>([{ text: name, tag: 'query-no-equals' }]),
    ...(mutations.length
      ? [
          fc.oneof(...mutations).map((bad): QueryPart[] => [
            {
              text: `${name}=${encode(typeof bad.value === 'string' ? bad.value : (JSON.stringify(bad.value) ?? ''))}`,
              tag: `query-${bad.mutation}`,
            },
          ]),
        ]
      : []),
  );
  return fc.oneof(
    { weight: 3, arbitrary: scalar.map((v): QueryPart[] => [{ text: `${name}=${v}` }]) },
    { weight: 2, arbitrary: broken },
  );
}

const GARBAGE_BODIES = [
  ...['', ' ', '{', '{"a":', '}', 'null', 'true', '0', '"string"', '[]', '[{}]', '{}{}', '{"a":1}garbage'],
  ...["{'single':'quotes'}", '{"a":1,}', 'undefined', 'NaN', '\uFEFF{}', '<xml/>', 'externalUserId=1&redirectUrl=x'],
  // Prototype pollution, then nesting deep enough to overflow a recursive parser.
  ...['{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}'],
  ...['['.repeat(5000) + ']'.repeat(5000), `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`],
];

type BodyChoice = { body: string | Buffer | undefined; tags: string[] };

function bodyArb(doc: Json, schema: Json | undefined, opts: RequestArbitraryOptions): fc.Arbitrary<BodyChoice> {
  const w = { valid: 12, mutated: 8, huge: 2, ...opts.weights };
  const garbage = fc.oneof(
    fc.constantFrom(...GARBAGE_BODIES).map((body) => ({ body, tags: ['body-garbage'] })),
    fc.string({ unit: 'binary', maxLength: 40 }).map((body) => ({ body, tags: ['body-random-text'] })),
    fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => ({
      body: Buffer.concat([Buffer.from('{"a":"'), Buffer.from(b), Buffer.from('"}')]),
      tags: ['body-invalid-utf8'],
    })),
  );
  const huge = fc.oneof(
    fc.integer({ min: 0, max: 4096 }).map((n) => ({
      body: JSON.stringify({ reason: 'r'.repeat(100_000 + n), redirectUrl: 'https://partner.example.com/x' }),
      tags: ['body-100KB'],
    })),
    fc.integer({ min: 0, max: 4096 }).map((n) => ({ body: `"${'s'.repeat(100_000 + n)}"`, tags: ['body-100KB'] })),
    fc.constant<BodyChoice>({
      body: JSON.stringify({ metadata: { big: 'm'.repeat(1024 * 1024 + 10) } }),
      tags: ['body-over-1MiB'],
    }),
  );
  if (!schema) {
    // No body documented: mostly none, sometimes one anyway.
    return fc.oneof(
      { weight: 8, arbitrary: fc.constant<BodyChoice>({ body: undefined, tags: [] }) },
      { weight: 1, arbitrary: fc.constant<BodyChoice>({ body: '{}', tags: ['body-unexpected'] }) },
      { weight: 1, arbitrary: garbage },
    );
  }
  const valid = valueFor(doc, schema, opts).map((v) => ({ body: JSON.stringify(v), tags: ['body-valid'] }));
  const mutated = mutatedValueFor(doc, schema, opts).map((m) => ({
    body: JSON.stringify(m.value) ?? 'null',
    tags: [`body-${m.mutation}`],
  }));
  const respaced = valueFor(doc, schema, opts).map((v) => ({
    body: `${JSON.stringify(v, null, '\t')}\n`,
    tags: ['body-respaced'],
  }));
  return fc.oneof(
    { weight: w.valid, arbitrary: valid },
    { weight: 2, arbitrary: respaced },
    { weight: w.mutated, arbitrary: mutated },
    { weight: 4, arbitrary: garbage },
    { weight: 2, arbitrary: fc.constant<BodyChoice>({ body: undefined, tags: ['body-missing'] }) },
    { weight: w.huge, arbitrary: huge },
  );
}

/** Mostly the valid variant (the first of each table), sometimes any other. */
const variantArb = <V extends string>(variants: V[], weights: [number, number]) =>
  fc.oneof(
    { weight: weights[0], arbitrary: fc.constant(variants[0]) },
    { weight: weights[1], arbitrary: fc.constantFrom(...variants.slice(1)) },
  );
const authArb = variantArb(Object.keys(AUTH_HEADERS) as AuthVariant[], [20, 4]);
const contentTypeArb = variantArb(Object.keys(CONTENT_TYPES) as ContentTypeVariant[], [16, 5]);

/** Requests for one operation of a document, from its parameters, body schema and security. */
function requestFor(
  doc: Json,
  api: string,
  op: OperationModel,
  opts: RequestArbitraryOptions = {},
): fc.Arbitrary<FuzzRequest> {
  const { path: pathKey, method } = op;
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');

  const path = fc.tuple(...pathParams.map((p) => pathValueArb(doc, p, opts))).map((values) => {
    let text = pathKey;
    const tags: string[] = [];
    pathParams.forEach((p, i) => {
      text = text.replace(`{${p.name}}`, values[i].text);
      if (values[i].tag) tags.push(values[i].tag!);
    });
    return { text, tags };
  });
  const oddStaticPath = fc.constantFrom(
    (t: string) => `${t}/`,
    (t: string) => `/${t}`,
    (t: string) => t.replace(/\/([a-z])/, (_m, c: string) => `/%${c.charCodeAt(0).toString(16)}`),
    (t: string) => t.toUpperCase(),
    (t: string) => `${t}/..`,
    (t: string) => `${t};x=1`,
  );
  const pathWithOdd = fc.oneof(
    { weight: 12, arbitrary: path },
    {
      weight: 1,
      arbitrary: fc
        .tuple(path, oddStaticPath)
        .map(([p, f]) => ({ text: f(p.text), tags: [...p.tags, 'odd-static-path'] })),
    },
  );

  const query = fc
    .tuple(
      fc.subarray(queryParams),
      fc.tuple(...queryParams.map((p) => queryParamArb(doc, p, opts))),
      fc.oneof(
        { weight: 6, arbitrary: fc.constant<QueryPart[]>([]) },
        {
          weight: 1,
          arbitrary: fc.constantFrom<QueryPart[]>(
            [{ text: 'unknown=1', tag: 'query-unknown' }],
            [{ text: '&&=&', tag: 'query-junk' }],
            [{ text: '%zz=%zz', tag: 'query-junk' }],
            [{ text: `q=${'x'.repeat(3000)}`, tag: 'query-long' }],
          ),
        },
      ),
    )
    .map(([chosen, parts, junk]) => {
      const selected = queryParams.flatMap((p, i) => (chosen.includes(p) || p.required ? parts[i] : []));
      const all = [...selected, ...junk];
      return { text: all.map((q) => q.text).join('&'), tags: all.flatMap((q) => (q.tag ? [q.tag] : [])) };
    });

  const otherMethods = ['PATCH', 'DELETE', 'PUT', 'POST', 'GET', 'OPTIONS'].filter((m) => m !== method);

  return fc
    .record({
      method: variantArb([method, ...otherMethods], [30, 1]),
      path: pathWithOdd,
      query,
      body: bodyArb(doc, op.bodySchema, opts),
      auth: authArb,
      authGarbage: latin1(40),
      contentType: contentTypeArb,
      contentTypeGarbage: latin1(30),
    })
    .map((r) => {
      const target = `${r.path.text}${r.query.text ? `?${r.query.text}` : ''}`;
      const tags = [...r.path.tags, ...r.query.tags, ...r.body.tags];
      if (r.method !== method) tags.push('wrong-method');
      if (r.auth !== 'valid') tags.push(`auth-${r.auth}`);
      if ((r.body.body !== undefined || api === 'partner') && r.contentType !== 'json')
        tags.push(`content-type-${r.contentType}`);
      const { path: _path, query: _query, body, ...sent } = r;
      const scheme = api === 'v2' ? 'bearer' : 'authKey';
      const request: FuzzRequest = { ...sent, api, operationId: op.operationId, target, body: body.body, tags };
      // fast-check prints a failing request this way.
      return {
        [fc.toStringMethod]: () => describeRequest(request, headersFor(request, scheme, '<credential>')),
        ...request,
      };
    });
}

/** Requests for every operation of a document (paths, not webhooks), one operation chosen at random each time. */
export function requestsForDocument(
  doc: Json,
  api: string,
  opts: RequestArbitraryOptions = {},
): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...loadApi(api as ApiName).operations.map((op) => requestFor(doc, api, op, opts)));
}

/** The headers of a request, with the credential valid at send time, for the API's `scheme`. */
export function headersFor(
  req: FuzzRequest,
  scheme: 'bearer' | 'authKey',
  credential: string,
): Record<string, string | string[]> {
  const bearer = scheme === 'bearer';
  const headers: Record<string, string | string[]> = AUTH_HEADERS[req.auth]({
    name: bearer ? 'authorization' : 'x-auth-key',
    good: bearer ? `Bearer ${credential}` : credential,
    credential,
    bearer,
    garbage: req.authGarbage,
  });
  // The partner document asks for the type on every call, those without a body too.
  if (req.body !== undefined || !bearer) {
    const value = req.contentType === 'garbage' ? req.contentTypeGarbage : CONTENT_TYPES[req.contentType];
    if (value !== undefined) headers['content-type'] = value;
  }
  return headers;
}

export function describeRequest(req: FuzzRequest, headers: Record<string, string | string[]>): string {
  const text = req.body === undefined ? '' : String(req.body);
  const body =
    req.body === undefined
      ? '(none)'
      : text.length > 300
        ? `${req.body.length} bytes: ${JSON.stringify(text.slice(0, 120))}...`
        : JSON.stringify(text);
  const shownHeaders = JSON.stringify(headers, (_k, v) =>
    typeof v === 'string' && v.length > 120 ? `${v.slice(0, 120)}...` : v,
  );
  const target = req.target.length > 300 ? `${req.target.slice(0, 200)}... (${req.target.length} chars)` : req.target;
  return `${req.method} ${target}\n    headers ${shownHeaders}\n    body ${body}\n    generated from ${req.api} ${req.operationId} [${req.tags.join(', ')}]`;
}
