// Whole HTTP requests per operation of a bundled document, with odd paths,
// queries, headers and bodies, for test/fuzz-sandbox.test.ts. The operations
// and values come from src/conformance, as the conformance runner's do.
import fc from 'fast-check';
import { loadApi, type ApiName, type OperationModel } from '../../src/conformance/operations.js';
import type { RouteParam } from '../../src/contract/routes.js';
import {
  encode,
  mutatedValueFor,
  mutationsOf,
  valueFor,
  type SchemaArbitraryOptions,
} from '../../src/conformance/schema-values.js';
import type { Json } from './openapi.js';

type Headers = Record<string, string | string[]>;

export interface FuzzRequest {
  /** The operation the request was made from (it may reach another route, or none). */
  operationId: string;
  method: string;
  /** Raw request target: path and query, as sent on the request line. */
  target: string;
  /** The headers, with the credential valid at send time (a fuzzed `POST /auth-keys` rotates the key). */
  headers: (credential: string) => Headers;
  body: string | Buffer | undefined;
}

type Auth = (credential: string) => Headers;

/** Mostly the first value, sometimes one of the others. */
const mostly = <T>(usual: T, others: fc.Arbitrary<T>, weights: [number, number]) =>
  fc.oneof({ weight: weights[0], arbitrary: fc.constant(usual) }, { weight: weights[1], arbitrary: others });

// Latin-1 printable characters: what a header value or raw request line may carry in Node.
const latin1 = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(fc.integer({ min: 0x21, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map(String.fromCharCode),
    minLength: 1,
    maxLength,
  });

/** How the credential is sent: as the API's scheme asks (a bearer token for v2, `X-Auth-Key` for partner), or not. */
function authArb(bearer: boolean): fc.Arbitrary<Auth> {
  const name = bearer ? 'authorization' : 'x-auth-key';
  const good = (c: string) => (bearer ? `Bearer ${c}` : c);
  const wrong = fc.oneof(
    {
      weight: 9,
      arbitrary: fc.constantFrom<Auth>(
        () => ({}),
        () => ({ [name]: '' }),
        (c) => ({ [name]: bearer ? `Bearer ${c}x` : c.slice(0, -1) }),
        (c) => ({ [name]: [good(c), good(c)] }),
        (c) => ({ [name]: bearer ? `Bearer  ${c}` : `${c} \t` }),
        (c) => ({ [name]: bearer ? `bearer ${c}` : c.toUpperCase() }),
        (c) => ({ [name]: bearer ? c : `Bearer ${c}` }),
        (c) => ({ authorization: `Basic ${Buffer.from(`user:${c}`).toString('base64')}` }),
        // The credential of the other API's scheme.
        (c) => ({ [bearer ? 'x-auth-key' : 'authorization']: bearer ? c : `Bearer ${c}` }),
      ),
    },
    latin1(40).map((garbage) => () => ({ [name]: garbage })),
    latin1(40).map((garbage) => (c: string) => ({ [name]: [good(c), garbage] })),
  );
  return mostly((c: string) => ({ [name]: good(c) }), wrong, [20, 4]);
}

/** The Content-Type sent: mostly JSON's, sometimes another, a malformed one or none. */
const contentTypeArb = mostly<string | string[] | undefined>(
  'application/json',
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.constantFrom<string | string[] | undefined>(
        ...['application/json; charset=utf-8', undefined, 'text/plain', 'application/x-www-form-urlencoded'],
        ...['multipart/form-data; boundary=xyz', 'APPLICATION/JSON', 'application/jsonx'],
        ['application/json', 'text/plain'],
      ),
    },
    latin1(30),
  ),
  [16, 5],
);

/** Path segments a router may mistake: traversal, broken escapes, object property names, odd separators, raw bytes. */
const oddPathSegment = fc.oneof(
  fc.constantFrom(
    ...['%2F', 'a%2Fb', '%2e%2e', '..', '.', '%00', '%', '%zz', '%C3%28', '%FF', '%E2%82', 'a;b=c'],
    ...['null', 'undefined', '__proto__', 'constructor', '%20', '%09x'],
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map(encode),
  // Latin-1 bytes sent raw on the request line: not UTF-8.
  fc.string({ unit: fc.integer({ min: 0xa0, max: 0xff }).map(String.fromCharCode), minLength: 1, maxLength: 6 }),
  fc.constantFrom(300, 4000, 20_000).map((n) => 'a'.repeat(n)),
  fc.uuid().map((u) => u.toUpperCase()),
);

/** How one path parameter is written: a known id, a generated value, or something odd. */
function pathValueArb(doc: Json, p: RouteParam, opts: SchemaArbitraryOptions): fc.Arbitrary<string> {
  const known = opts.knownIds?.[p.name] ?? [];
  return fc.oneof(
    ...(known.length ? [{ weight: 5, arbitrary: fc.constantFrom(...known).map(encode) }] : []),
    { weight: 3, arbitrary: valueFor(doc, p.schema, opts).map((v) => encode(String(v))) },
    { weight: 2, arbitrary: oddPathSegment },
  );
}

/** Query values a lenient number, boolean or list parser would take. */
const ODD_QUERY_VALUES = [
  ...['', '%31', '1e1', '0x10', '%201', 'Infinity', 'NaN', '-0', '1.0', '%zz', '+1'],
  ...['true', '[]', '{}', '1,2'],
];

/** One query parameter written as `name=value` pairs (possibly none), valid or broken. */
function queryParamArb(doc: Json, p: RouteParam, opts: SchemaArbitraryOptions): fc.Arbitrary<string[]> {
  const pair = (text: string) => `${encode(p.name)}=${text}`;
  const schema = p.array ? (p.schema.items ?? {}) : p.schema;
  const values = valueFor(doc, schema, opts).map((v) => encode(String(v)));
  const list = fc.array(values, { minLength: 1, maxLength: p.array ? 3 : 1 });
  const joined = (vs: string[]) => [pair(vs.join(','))];
  const repeated = (vs: string[]) => vs.map(pair);
  const mutations = mutationsOf(doc, schema, opts);
  const broken = fc.oneof<fc.Arbitrary<string[]>[]>(
    // Arrays: the other serialization than the document's; scalars: given twice.
    p.array
      ? list.filter((vs) => vs.length > 1).map(p.explode ? joined : repeated)
      : fc.tuple(values, values).map(repeated),
    fc.constantFrom(...ODD_QUERY_VALUES, ...(p.array ? [',', ',,', '%2C', encode(' , ')] : [])).map((s) => [pair(s)]),
    fc.constant([encode(p.name)]),
    ...(mutations.length
      ? [
          fc.oneof(...mutations).map(({ value }) =>
            // An array's broken item goes once as JSON and once as text; a scalar as text if it is one.
            p.array
              ? [pair(encode(JSON.stringify(value) ?? '')), pair(encode(String(value)))]
              : [pair(encode(typeof value === 'string' ? value : (JSON.stringify(value) ?? '')))],
          ),
        ]
      : []),
  );
  return fc.oneof({ weight: 3, arbitrary: list.map(p.explode ? repeated : joined) }, { weight: 2, arbitrary: broken });
}

const GARBAGE_BODIES = [
  ...['', ' ', '{', '{"a":', '}', 'null', 'true', '0', '"string"', '[]', '[{}]', '{}{}', '{"a":1}garbage'],
  ...["{'single':'quotes'}", '{"a":1,}', 'undefined', 'NaN', '\uFEFF{}', '<xml/>', 'externalUserId=1&redirectUrl=x'],
  // Prototype pollution, then nesting deep enough to overflow a recursive parser.
  ...['{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}'],
  ...['['.repeat(5000) + ']'.repeat(5000), `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`],
];

const garbageBody = fc.oneof(
  fc.constantFrom(...GARBAGE_BODIES),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .uint8Array({ minLength: 1, maxLength: 40 })
    .map((b) => Buffer.concat([Buffer.from('{"a":"'), b, Buffer.from('"}')])),
);

/** About 100 KB, and over 1 MiB. */
const hugeBody = fc.oneof(
  fc
    .integer({ min: 0, max: 4096 })
    .map((n) => JSON.stringify({ reason: 'r'.repeat(100_000 + n), redirectUrl: 'https://partner.example.com/x' })),
  fc.integer({ min: 0, max: 4096 }).map((n) => `"${'s'.repeat(100_000 + n)}"`),
  fc.constant(JSON.stringify({ metadata: { big: 'm'.repeat(1024 * 1024 + 10) } })),
);

function bodyArb(doc: Json, schema: Json | undefined, opts: SchemaArbitraryOptions): fc.Arbitrary<FuzzRequest['body']> {
  const none = fc.constant(undefined);
  // No body documented: mostly none, sometimes one anyway.
  if (!schema) return fc.oneof({ weight: 8, arbitrary: none }, fc.constant('{}'), garbageBody);
  const valid = valueFor(doc, schema, opts);
  return fc.oneof(
    { weight: 12, arbitrary: valid.map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: valid.map((v) => `${JSON.stringify(v, null, '\t')}\n`) },
    { weight: 8, arbitrary: mutatedValueFor(doc, schema, opts).map((m) => JSON.stringify(m.value) ?? 'null') },
    { weight: 4, arbitrary: garbageBody },
    { weight: 2, arbitrary: none },
    { weight: 2, arbitrary: hugeBody },
  );
}

/** Ways to bend a path the router must not mistake for the documented one. */
const ODD_PATHS = [
  (t: string) => `${t}/`,
  (t: string) => `/${t}`,
  (t: string) => t.replace(/\/([a-z])/, (_m, c: string) => `/%${c.charCodeAt(0).toString(16)}`),
  (t: string) => t.toUpperCase(),
  (t: string) => `${t}/..`,
  (t: string) => `${t};x=1`,
];
const ODD_QUERIES = [['unknown=1'], ['&&=&'], ['%zz=%zz'], [`q=${'x'.repeat(3000)}`]];

/** Requests for one operation of a document, from its parameters, body schema and security. */
function requestFor(doc: Json, op: OperationModel, opts: SchemaArbitraryOptions): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const path = fc
    .tuple(...pathParams.map((p) => pathValueArb(doc, p, opts)))
    .map((values) => pathParams.reduce((text, p, i) => text.replace(`{${p.name}}`, values[i]), op.path));
  const query = fc
    .tuple(
      fc.subarray(queryParams),
      fc.tuple(...queryParams.map((p) => queryParamArb(doc, p, opts))),
      mostly<string[]>([], fc.constantFrom(...ODD_QUERIES), [6, 1]),
    )
    .map(([chosen, parts, junk]) =>
      [...queryParams.flatMap((p, i) => (chosen.includes(p) || p.required ? parts[i] : [])), ...junk].join('&'),
    );
  const otherMethods = ['PATCH', 'DELETE', 'PUT', 'POST', 'GET', 'OPTIONS'].filter((m) => m !== op.method);
  return fc
    .record({
      method: mostly(op.method, fc.constantFrom(...otherMethods), [30, 1]),
      path: fc.oneof(
        { weight: 12, arbitrary: path },
        fc.tuple(path, fc.constantFrom(...ODD_PATHS)).map(([p, odd]) => odd(p)),
      ),
      query,
      body: bodyArb(doc, op.bodySchema, opts),
      auth: authArb(op.api === 'v2'),
      contentType: contentTypeArb,
    })
    .map(({ method, path, query, body, auth, contentType }) => ({
      operationId: op.operationId,
      method,
      target: query ? `${path}?${query}` : path,
      body,
      headers: (credential: string) => ({
        ...auth(credential),
        // The partner document asks for the type on every call, those without a body too.
        ...(contentType !== undefined && (body !== undefined || op.api === 'partner')
          ? { 'content-type': contentType }
          : {}),
        // Node sends a DELETE, GET or OPTIONS body without framing unless told its length.
        ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
      }),
    }));
}

/** Requests for every operation of a document (paths, not webhooks), one operation chosen at random each time. */
export function requestsForApi(api: ApiName, opts: SchemaArbitraryOptions = {}): fc.Arbitrary<FuzzRequest> {
  const { doc, operations } = loadApi(api);
  return fc.oneof(...operations.map((op) => requestFor(doc, op, opts)));
}

/** The request as sent, long values clipped, for a failure's message. */
export const describeRequest = (req: FuzzRequest, headers: Headers) =>
  JSON.stringify({ ...req, auth: undefined, headers, body: req.body && String(req.body) }, (_key, v) =>
    typeof v === 'string' && v.length > 300 ? `${v.slice(0, 300)}... (${v.length} chars)` : v,
  );
