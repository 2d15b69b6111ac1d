// The two doors agree: the same requests, in the same order, to a node:http
// sandbox on a socket and to a fetch handler get the status each row expects
// and the same answer once what differs by nature (ids, times, tokens, the base
// URL) is blanked. Then what one door alone shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxFetch, type SandboxFetch } from '../src/sandbox/fetch.js';
import { validatorFor } from './helpers/openapi.js';
import { rawRequest, type RawAnswer } from './helpers/raw-http.js';
import { fetchCalls, type Sandbox, useServedSandbox } from './helpers/served-sandbox.js';

const AUTH_KEY = 'doors-agree-key';
const ACCESS_TOKEN = 'doors-agree-token';
/** The base URL the fetch handler is asked at. */
const BASE = 'http://sandbox.localhost';
const docs = { partner: validatorFor('partner'), v2: validatorFor('v2') };

const same = { onDeliveryFailure: () => undefined, authKey: AUTH_KEY, accessToken: ACCESS_TOKEN };
const served = useServedSandbox(same);
let server: Sandbox;
let port: number;
let handler: SandboxFetch;
beforeAll(async () => {
  ({ sandbox: server, port } = served);
  handler = await createSandboxFetch(same);
});
afterAll(() => handler.close());

type Header = [string, string];

/** A body as bytes, undefined when empty: a string would make Request add `Content-Type: text/plain`, which the socket never sends. */
const bytesOf = (body: string | Uint8Array): BodyInit | undefined =>
  body.length === 0 ? undefined : typeof body === 'string' ? new TextEncoder().encode(body) : new Uint8Array(body);

/**
 * The answers of the node:http door and of the fetch handler, in that order,
 * to one request as sent by a client that tidies nothing: on a socket byte
 * for byte, and as a Request whose headers keep a name given twice.
 */
async function sendBoth(method: string, target: string, headers: Header[], body: string | Uint8Array = '') {
  const lines = headers.map(([name, value]) => `${name}: ${value}`);
  const viaPort = await rawRequest(port, [`${method} ${target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...lines], body);
  const sent = new Headers();
  for (const [name, value] of headers) sent.append(name, value);
  const res = await handler.fetch(new Request(`${BASE}${target}`, { method, headers: sent, body: bytesOf(body) }));
  const viaFetch: RawAnswer = { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  return [viaPort, viaFetch];
}

const key: Header = ['X-Auth-Key', AUTH_KEY];
const bearer: Header = ['Authorization', `Bearer ${ACCESS_TOKEN}`];
// Sent on every partner call, as the partner document asks (a call without it is refused 400).
const json: Header = ['Content-Type', 'application/json'];
const typed = (type: string): Header => ['Content-Type', type];
const create = JSON.stringify({
  externalUserId: '5a0f7c1e-2b4d-4e8a-9c3f-6d1b8e2a7f40',
  redirectUrl: 'https://partner.example.com/kyc/done',
});
const misspelt = create.replace('}', ', "timeToExpire": 5}');
const MISSPELT = /^body\.timeToExpire is not a documented field; did you mean timeToExpiry\?$/;
const NOT_UTF8 = new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]);
const FTP_HOOKS = '{"webhookUrl": "ftp://partner.example.com/hooks"}';
const NO_ID = `${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`;
const SLASHED = /^no operation GET \/verifications\/; the documented path is \/verifications$/;
const NOT_JSON = /^Content-Type must be application\/json; text\/plain was sent$/;
const UNTYPED = /Content-Type: application\/json on every call/;
const TWICE =
  /^Content-Type is given more than once \(application\/json, application\/json\); send one Content-Type header: application\/json$/;

/** The status, or the status and what the error body's message (or the X-Sandbox-Reason header) says. */
type Expected = number | [number, RegExp];
const SEEDED_V2 = '6f1c2b9e-4d3a-4e8b-9a61-2f7d0c5e8b14';
const UNREADABLE = /^path is not a valid request target: /;
const OVER_1_MIB = JSON.stringify({ reason: 'x'.repeat(1024 * 1024) });
const charset = (name: string): Header => ['Content-Type', `application/json; charset=${name}`];
const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));
const notUtf8 = (offset: number) => new RegExp(`^body is not valid UTF-8: invalid byte at offset ${offset}$`);
/** A JSON string holding `sequence`, whose first byte is the seventh. */
const inString = (sequence: number[]) => bytes('{"a":"', sequence, '"}');
const CLOCK = '/_sandbox/clock/advance';
// A partner call with its key and its type.
const kj: Header[] = [key, json];
const PHONES = '%2B4915100000001&phoneNumber=%2B4915100000002';
const BOM_CREATE = bytes([0xef, 0xbb, 0xbf], create);
const NOT_UTF8_AT_12 = bytes('{"reason":"A', [0xff], 'B"}');
// The undeclared field is named beside what the validator finds missing.
const BESIDE_MISSING = /^body\.requirements\.0\.typ .*did you mean type\?; body\.requirements\.0\.type is required$/;
const TYPO_IN_ITEM = create.replace('}', ', "requirements": [{"typ": "document"}]}');

/** [what, method, target, headers as sent (a name twice is sent twice), body, expected]. */
const variants: [string, string, string, Header[], string | Uint8Array, Expected][] = [
  ['partner settings', 'GET', '/partners', kj, '', 200],
  ['partner without a key', 'GET', '/partners', [json], '', 401],
  ['partner with an unknown key', 'GET', '/partners', [['X-Auth-Key', 'nope'], json], '', 401],
  ['partner key given twice', 'GET', '/partners', [key, key, json], '', 401],
  ['partner with the v2 token', 'GET', '/partners', [bearer, json], '', 401],
  ['partner key and Authorization twice', 'GET', '/partners', [key, bearer, bearer, json], '', 200],
  ['partner HEAD', 'HEAD', '/partners', kj, '', 200],
  ['partner DELETE', 'DELETE', '/partners?x=1', [key], '', [404, /^no operation DELETE \/partners$/]],
  ['partner OPTIONS', 'OPTIONS', '/partners', [key], '', 404],
  ['partner percent-encoded path', 'GET', '/%70artners', kj, '', 200],
  ['partner trailing slash', 'GET', '/partners/', kj, '', [404, /documented path is \/partners$/]],
  ['partner, duplicate slashes', 'GET', '//partners', kj, '', 404],
  ['partner, upper case', 'GET', '/PARTNERS', kj, '', 404],
  ['partner GET, no Content-Type', 'GET', '/partners', [key], '', [400, UNTYPED]],
  ['partner GET, text/plain', 'GET', '/partners', [key, typed('text/plain')], '', [400, UNTYPED]],
  ['partner GET, an unparseable type', 'GET', '/partners', [key, typed('json')], '', [400, UNTYPED]],
  ['partner GET, Content-Type twice', 'GET', '/partners', [key, json, json], '', [400, TWICE]],
  ['partner GET, a charset', 'GET', '/partners', [key, typed('application/json; charset=utf-8')], '', 200],
  ['partner GET, upper case', 'GET', '/partners', [key, typed('Application/JSON')], '', 200],
  ['partner HEAD, no Content-Type', 'HEAD', '/verifications', [key], '', 400],
  ['partner POST, no body nor Content-Type', 'POST', '/auth-keys', [key], '', [400, UNTYPED]],
  ['list', 'GET', '/verifications', kj, '', 200],
  ['list, page size 0', 'GET', '/verifications?pageSize=0', kj, '', 400],
  ['list, status twice', 'GET', '/verifications?status=created&status=completed', kj, '', [400, /^status is sent 2/]],
  ['users, phone twice', 'GET', `/users?phoneNumber=${PHONES}`, kj, '', [400, /^phoneNumber is sent 2/]],
  ['list, bracket style', 'GET', '/verifications?status[]=created', kj, '', [400, /^status\[\] is bracket style/]],
  ['list, a v2 parameter', 'GET', '/verifications?statuses=created', kj, '', [400, /^statuses is not a parameter/]],
  ['partner, a query it takes none', 'GET', '/partners?verbose=1', kj, '', [400, /^verbose .*it takes: none/]],
  ['list, unknown parameter', 'GET', '/verifications?colour=red', kj, '', 400],
  ['list, trailing slash', 'GET', '/verifications/', kj, '', [404, SLASHED]],
  ['verification, unknown id', 'GET', `/verifications/${NO_ID}`, kj, '', 404],
  ['verification, encoded slash', 'GET', '/verifications/a%2Fb', kj, '', [404, /^Verification a\/b not found$/]],
  ['verification, undecodable', 'GET', '/verifications/%zz', kj, '', [400, UNREADABLE]],
  ['verification, not UTF-8 decoded', 'GET', '/verifications/%C3%28', kj, '', [400, UNREADABLE]],
  ['no operation, undecodable', 'GET', '/nowhere/%', kj, '', [400, UNREADABLE]],
  ['verification, id of 101', 'GET', `/verifications/${'a'.repeat(101)}`, kj, '', [400, UNREADABLE]],
  ['verification, id of 100', 'GET', `/verifications/${'a'.repeat(100)}`, kj, '', [404, /^Verification a{100} /]],
  ['create', 'POST', '/verifications', kj, create, 201],
  ['create, no Content-Type', 'POST', '/verifications', [key], create, [400, UNTYPED]],
  ['create, text/plain', 'POST', '/verifications', [key, typed('text/plain')], create, [415, NOT_JSON]],
  ['create, latin1', 'POST', '/verifications', [key, charset('latin1')], create, [415, /charset .* not latin1$/]],
  ['create, ISO-8859-1', 'POST', '/verifications', [key, charset('ISO-8859-1')], create, [415, /not iso-8859-1$/]],
  ['create, utf-16', 'POST', '/verifications', [key, charset('utf-16')], create, [415, /not utf-16$/]],
  ['create, UTF-8', 'POST', '/verifications', [key, charset('UTF-8')], create, 201],
  ['create, "utf-8"', 'POST', '/verifications', [key, charset('"utf-8"')], create, 201],
  ['create, utf8', 'POST', '/verifications', [key, charset('utf8')], create, 201],
  ['create, Content-Type twice', 'POST', '/verifications', [key, json, json], create, [400, TWICE]],
  ['create, gzip', 'POST', '/verifications', [...kj, ['Content-Encoding', 'gzip']], create, [415, /not gzip: /]],
  ['create, br', 'POST', '/verifications', [...kj, ['Content-Encoding', 'br']], create, [415, /not br: /]],
  ['create, broken JSON', 'POST', '/verifications', kj, '{"phoneNumber": +49}', 400],
  ['create, empty object', 'POST', '/verifications', kj, '{}', 400],
  ['create, empty body', 'POST', '/verifications', kj, '', [400, /^body is required: /]],
  ['create, over 1 MiB', 'POST', '/verifications', kj, OVER_1_MIB, [413, /larger than 1 MiB$/]],
  ['create, a byte order mark', 'POST', '/verifications', kj, BOM_CREATE, [400, /^body is not valid JSON/]],
  ['create, prototype key', 'POST', '/verifications', kj, '{"__proto__": {}}', 400],
  ['create, unknown field', 'POST', '/verifications', kj, misspelt, [400, MISSPELT]],
  ['create, not UTF-8', 'POST', '/verifications', kj, NOT_UTF8, 400],
  ['create, a byte not in UTF-8', 'POST', '/verifications', kj, NOT_UTF8_AT_12, [400, notUtf8(12)]],
  ['create, a typo in an item', 'POST', '/verifications', kj, TYPO_IN_ITEM, [400, BESIDE_MISSING]],
  ['create, two keys', 'POST', '/verifications', [key, ['X-Auth-Key', 'other'], json], create, 401],
  ['partner webhook URL refused', 'PUT', '/partners', kj, FTP_HOOKS, 400],
  ['no such operation', 'GET', '/nowhere', [key], '', 404],
  ['no such operation, a slash', 'GET', '/no-such-thing/', [key], '', [404, /^no operation GET \/no-such-thing\/$/]],
  ['no operation, broken JSON', 'POST', '/no-such-thing', [json], '{"a":', [404, /^no operation POST \/no-/]],
  ['no such operation, over 1 MiB', 'POST', '/no-such-thing', [json], OVER_1_MIB, [404, /^no operation POST/]],
  ['v2 list', 'GET', '/v2/verifications/?pageSize=2', [bearer], '', 200],
  ['v2 list, unknown parameter', 'GET', '/v2/verifications/?status=completed', [bearer], '', 400],
  ['v2 without the slash', 'GET', '/v2/verifications?pageSize=1', [bearer], '', [404, /is \/v2\/verifications\/$/]],
  ['v2, duplicate slashes', 'GET', '/v2//verifications/', [bearer], '', 404],
  ['v2 DELETE', 'DELETE', '/v2/verifications/', [bearer], '', 404],
  ['v2 session, percent-encoded path', 'GET', `/%762/verifications/${SEEDED_V2}`, [bearer], '', 200],
  ['v2 list, a fragment', 'GET', '/v2/verifications/?pageSize=1#pageSize=80', [bearer], '', 200],
  // The query before a fragment is read: a page size over 50 is refused.
  ['v2 list, a query before a fragment', 'GET', '/v2/verifications/?pageSize=80#x', [bearer], '', 400],
  ['v2 without a token', 'GET', '/v2/verifications/', [], '', 401],
  ['v2 token given twice', 'GET', '/v2/verifications/', [bearer, bearer], '', 401],
  ['v2 two different tokens', 'GET', '/v2/verifications/', [bearer, ['Authorization', 'Bearer other']], '', 401],
  ['v2 with the partner key', 'GET', '/v2/verifications/', [key], '', 401],
  ['v2 list, out of range', 'GET', '/v2/verifications/?pageSize=80&statuses=PENDING', [bearer], '', 400],
  ['v2 session, unknown id', 'GET', `/v2/verifications/${NO_ID}`, [bearer], '', [404, /^Not found$/]],
  ['control GET without Content-Type', 'GET', '/_sandbox/credentials', [], '', 200],
  ['control POST without JSON', 'POST', '/_sandbox/seed', [], '', 415],
  ['control clock refused', 'POST', CLOCK, [json], '{"minutes": -1}', 400],
  ['control, no field close', 'POST', CLOCK, [json], '{"minutes": 1, "colour": "red"}', [400, /here: minutes\)$/]],
  ['control, a sequence cut short', 'POST', CLOCK, [json], inString([0xe2, 0x82]), [400, notUtf8(6)]],
  ['control, an overlong form', 'POST', CLOCK, [json], inString([0xc0, 0xaf]), [400, notUtf8(6)]],
  ['control, a surrogate', 'POST', CLOCK, [json], inString([0xed, 0xa0, 0x80]), [400, notUtf8(6)]],
  ['control Content-Type twice', 'POST', CLOCK, [json, json], '{"minutes": 1}', [400, TWICE]],
  ['control v2 session, Content-Type twice', 'POST', '/_sandbox/v2/verifications', [json, json], '{}', [400, TWICE]],
  ['the documents', 'GET', '/openapi/v2.json', [], '', 200],
];

/** What may differ between two sandboxes by nature: their base URLs, ids, times and link tokens. */
function normalized(text: string): string {
  return text
    .replaceAll(`http://127.0.0.1:${port}`, BASE)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/token=[^"&<\s]+/g, 'token=<token>');
}

const seen = (answer: RawAnswer) => ({
  status: answer.status,
  type: answer.headers['content-type'],
  nosniff: answer.headers['x-content-type-options'],
  reason: answer.headers['x-sandbox-reason'],
  body: normalized(answer.body),
});

// In order, one at a time: the requests that change state change both sandboxes alike.
it.each(variants)('%s: the same answer through both doors', async (_, method, target, headers, body, expected) => {
  const [viaPort, viaFetch] = await sendBoth(method, target, headers, body);
  const [status, message] = typeof expected === 'number' ? [expected] : expected;
  expect(viaPort.status).toBe(status);
  expect(seen(viaFetch)).toEqual(seen(viaPort));
  // Every JSON answer is nosniff, so a browser never reads it as anything else.
  if (viaPort.headers['content-type']?.startsWith('application/json'))
    expect(viaPort.headers['x-content-type-options']).toBe('nosniff');
  if (message) {
    const body = JSON.parse(viaPort.body);
    docs[target.startsWith('/v2') ? 'v2' : 'partner'].expectValid('Error', body);
    expect([body.message, viaPort.headers['x-sandbox-reason']]).toContainEqual(expect.stringMatching(message));
  }
});

it('a partner POST refused for its type changed nothing: the key was not rotated', () => {
  expect(server.partner.activeAuthKey()).toBe(AUTH_KEY);
  expect(handler.authKey).toBe(AUTH_KEY);
});

const withErrorRedirect = create.replace('}', ', "errorRedirectUrl": "https://partner.example.com/kyc/error"}');

/** A body of `total` bytes made as it is pulled, counting the bytes pulled. */
function lazyBody(total: number, chunkSize: number) {
  const counted = { pulled: 0 };
  const chunk = new Uint8Array(chunkSize).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counted.pulled >= total) return controller.close();
      counted.pulled += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { stream, counted };
}

describe('the fetch door reads no more than it accepts', () => {
  /** A verification's end user page, made through the fetch handler. */
  const endUserPage = async () => (await fetchCalls(handler)('POST', '/verifications', withErrorRedirect)).body.url;

  it.each([
    [
      'a streamed 256 MB body',
      async () => `${BASE}/verifications`,
      { 'X-Auth-Key': AUTH_KEY, 'Content-Type': 'application/json' },
      64 * 1024,
      1024 * 1024,
      2 * 1024 * 1024,
      /^\{"statusCode":413,"message":"request body is larger than 1 MiB"\}$/,
    ],
    [
      'a streamed form over 16 KiB on the end user page',
      endUserPage,
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      4 * 1024,
      16 * 1024,
      256 * 1024,
      /The form sent is larger than 16 KiB\./,
    ],
  ])(
    'refuses %s with 413 having pulled little past its limit',
    async (_, target, headers, chunk, limit, most, says) => {
      const { stream, counted } = lazyBody(256 * 1024 * 1024, chunk);
      const init = { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit;
      const res = await handler.fetch(new Request(await target(), init));
      expect(res.status).toBe(413);
      expect(await res.text()).toMatch(says);
      expect(counted.pulled).toBeGreaterThan(limit);
      expect(counted.pulled).toBeLessThan(most);
    },
  );
});

describe('the end user page and a close at the same instant', () => {
  const CLOSED_PAGE = /The link no longer works: the verification is closed/;

  // Opens (GET) or posts the page of a new verification while closing it, many times.
  it.each(['the fetch handler', 'node:http'])(
    'answers through %s with the page, the closed page or a redirect, never a 500',
    async (door) => {
      const viaFetch = door === 'the fetch handler';
      const base = viaFetch ? BASE : server.url;
      const send = async (url: string, init?: RequestInit) => {
        const manual = { ...init, redirect: 'manual' as const };
        const res = viaFetch ? await handler.fetch(new Request(url, manual)) : await fetch(url, manual);
        return { status: res.status, text: await res.text() };
      };
      const form = {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'outcome=decline',
      };
      // Each round asks the page some turns after the close started, so some land between the page's read and its step.
      for (let turns = 0; turns < 48; turns++) {
        const created = await send(`${base}/verifications`, {
          method: 'POST',
          headers: { 'X-Auth-Key': AUTH_KEY, 'Content-Type': 'application/json' },
          body: turns % 2 ? withErrorRedirect : create,
        });
        const { id, url } = JSON.parse(created.text) as { id: string; url: string };
        const page = url.replace(/^https?:\/\/[^/]+/, base);
        // Half the rounds open the link first, so the page posts its form instead.
        const posting = turns % 4 >= 2;
        if (posting) expect((await send(page)).status).toBe(200);
        const close = send(`${base}/_sandbox/verifications/${id}/close`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
        });
        const later = async () => {
          for (let turn = 0; turn < turns; turn++) await Promise.resolve();
          return posting ? send(page, form) : send(page);
        };
        const [, answer] = await Promise.all([close, later()]);
        expect(answer.text).not.toMatch(/failed to serve this page/);
        expect([200, 303, 410], answer.text).toContain(answer.status);
        if (answer.status === 410) expect(answer.text).toMatch(CLOSED_PAGE);
      }
    },
  );
});
