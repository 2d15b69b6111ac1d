// The two doors agree: the same 45 requests (methods, paths, headers given
// once or twice, bodies, credentials) sent in the same order to a node:http
// sandbox, byte for byte on a socket, and to a fetch handler give the same
// status, type, reason header and body, once what differs per sandbox by
// nature (ids, times, tokens, the base URL) is blanked. The node:http door's
// Host and Origin guard is the one difference allowed, so every request here
// passes it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RawAnswer } from './helpers/raw-http.js';
import { FETCH_BASE, openTwoDoors, type Header, type TwoDoors } from './helpers/two-doors.js';

const AUTH_KEY = 'doors-agree-key';
const ACCESS_TOKEN = 'doors-agree-token';

let doors: TwoDoors;

beforeAll(async () => {
  doors = await openTwoDoors(AUTH_KEY, ACCESS_TOKEN);
});
afterAll(async () => {
  await doors.close();
  expect(doors.server.violations).toEqual([]);
});

const key: Header = ['X-Auth-Key', AUTH_KEY];
const bearer: Header = ['Authorization', `Bearer ${ACCESS_TOKEN}`];
// Sent on every partner call, as the partner document asks (a call without it is refused 400).
const json: Header = ['Content-Type', 'application/json'];
const create = JSON.stringify({
  externalUserId: '5a0f7c1e-2b4d-4e8a-9c3f-6d1b8e2a7f40',
  redirectUrl: 'https://partner.example.com/kyc/done',
});
const NO_ID = `${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`;

/** [what, method, target, headers as sent (a name twice is sent twice), body]. */
const variants: [string, string, string, Header[], (string | Uint8Array)?][] = [
  ['partner settings', 'GET', '/partners', [key, json]],
  ['partner without a key', 'GET', '/partners', [json]],
  ['partner with an unknown key', 'GET', '/partners', [['X-Auth-Key', 'nope'], json]],
  ['partner key given twice', 'GET', '/partners', [key, key, json]],
  ['partner with the v2 token', 'GET', '/partners', [bearer, json]],
  ['partner key and Authorization twice', 'GET', '/partners', [key, bearer, bearer, json]],
  ['partner HEAD', 'HEAD', '/partners', [key, json]],
  ['partner DELETE', 'DELETE', '/partners', [key]],
  ['partner OPTIONS', 'OPTIONS', '/partners', [key]],
  ['partner percent-encoded path', 'GET', '/%70artners', [key, json]],
  ['partner trailing slash', 'GET', '/partners/', [key, json]],
  ['list', 'GET', '/verifications', [key, json]],
  ['list, page size 0', 'GET', '/verifications?pageSize=0', [key, json]],
  ['list, status repeated', 'GET', '/verifications?status=created&status=completed', [key, json]],
  ['list, unknown parameter', 'GET', '/verifications?colour=red', [key, json]],
  ['list, trailing slash', 'GET', '/verifications/', [key, json]],
  ['verification, unknown id', 'GET', `/verifications/${NO_ID}`, [key, json]],
  ['verification, encoded slash', 'GET', '/verifications/a%2Fb', [key, json]],
  ['verification, undecodable', 'GET', '/verifications/%zz', [key, json]],
  ['create', 'POST', '/verifications', [key, json], create],
  ['create, no Content-Type', 'POST', '/verifications', [key], create],
  ['create, text/plain', 'POST', '/verifications', [key, ['Content-Type', 'text/plain']], create],
  ['create, latin1', 'POST', '/verifications', [key, ['Content-Type', 'application/json; charset=latin1']], create],
  ['create, Content-Type twice', 'POST', '/verifications', [key, json, json], create],
  ['create, gzip', 'POST', '/verifications', [key, json, ['Content-Encoding', 'gzip']], create],
  ['create, broken JSON', 'POST', '/verifications', [key, json], '{"phoneNumber": +49}'],
  ['create, empty object', 'POST', '/verifications', [key, json], '{}'],
  ['create, empty body', 'POST', '/verifications', [key, json], ''],
  ['create, prototype key', 'POST', '/verifications', [key, json], '{"__proto__": {}}'],
  ['create, unknown field', 'POST', '/verifications', [key, json], create.replace('}', ', "timeToExpire": 5}')],
  [
    'create, not UTF-8',
    'POST',
    '/verifications',
    [key, json],
    new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
  ],
  ['create, two keys', 'POST', '/verifications', [key, ['X-Auth-Key', 'other'], json], create],
  ['partner webhook URL refused', 'PUT', '/partners', [key, json], '{"webhookUrl": "ftp://partner.example.com/hooks"}'],
  ['no such operation', 'GET', '/nowhere', [key]],
  ['v2 list', 'GET', '/v2/verifications/?pageSize=2', [bearer]],
  ['v2 without the slash', 'GET', '/v2/verifications', [bearer]],
  ['v2 without a token', 'GET', '/v2/verifications/', []],
  ['v2 token given twice', 'GET', '/v2/verifications/', [bearer, bearer]],
  ['v2 two different tokens', 'GET', '/v2/verifications/', [bearer, ['Authorization', 'Bearer other']]],
  ['v2 with the partner key', 'GET', '/v2/verifications/', [key]],
  ['v2 list, out of range', 'GET', '/v2/verifications/?pageSize=80&statuses=PENDING', [bearer]],
  ['v2 session, unknown id', 'GET', `/v2/verifications/${NO_ID}`, [bearer]],
  ['control POST without JSON', 'POST', '/_sandbox/seed', []],
  ['control clock refused', 'POST', '/_sandbox/clock/advance', [json], '{"minutes": -1}'],
  ['control Content-Type twice', 'POST', '/_sandbox/clock/advance', [json, json], '{"minutes": 1}'],
];

/** What may differ between two sandboxes by nature: their base URLs, ids, times and link tokens. */
function normalized(text: string): string {
  return text
    .replaceAll(`http://127.0.0.1:${doors.port}`, FETCH_BASE)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/token=[^"&<\s]+/g, 'token=<token>');
}

const seen = (answer: RawAnswer) => ({
  status: answer.status,
  type: answer.headers['content-type'],
  reason: answer.headers['x-sandbox-reason'],
  body: normalized(answer.body),
});

it('holds 45 variants', () => {
  expect(variants).toHaveLength(45);
});

// In order, one at a time: the requests that change state change both sandboxes alike.
it.each(variants)('%s: the same answer through both doors', async (_, method, target, headers, body) => {
  const [viaPort, viaFetch] = await doors.send(method, target, headers, body);
  expect(viaPort.status).not.toBe(500);
  expect(seen(viaFetch)).toEqual(seen(viaPort));
});
