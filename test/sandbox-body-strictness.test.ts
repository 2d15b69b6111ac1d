// What the sandbox refuses in a JSON body beyond the schemas' own rules, and
// what a raw socket can send. A failed request changes nothing (S17), and no
// input leads to a lasting 500.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closestName, unknownFieldViolations } from '../src/contract/unknown-fields.js';
import { validatorFor } from './helpers/openapi.js';
import { useServedSandbox } from './helpers/served-sandbox.js';

const create = (extra: Record<string, unknown> = {}) => ({
  externalUserId: crypto.randomUUID(),
  redirectUrl: 'https://partner.example/done',
  ...extra,
});

const partnerDoc = validatorFor('partner');
const HEADERS_TIMEOUT_MS = 600;
const served = useServedSandbox({ headersTimeoutMs: HEADERS_TIMEOUT_MS });
const { call } = served;

describe('a body field no document declares', () => {
  it('is any key of a free-form object: the partner metadata and the v2 session metadata', async () => {
    const partner = await call(
      'POST',
      '/verifications',
      create({ metadata: { timeToExpire: 'kept', anyKeyAtAll: 'x' } }),
    );
    expect(partner.status).toBe(201);
    expect(partner.body.metadata).toEqual({ timeToExpire: 'kept', anyKeyAtAll: 'x' });
    const v2 = await call('POST', '/_sandbox/v2/verifications', {
      externalId: 'free-form',
      country: 'NL',
      phoneNo: '+31612345678',
      metadata: { nested: { anything: [1, { goes: true }] } },
    });
    expect(v2.status).toBe(201);
  });

  it('is known when any branch of allOf, oneOf or anyOf declares it', () => {
    const doc = {
      components: {
        schemas: {
          Base: { type: 'object', properties: { id: { type: 'string' } } },
          Either: {
            oneOf: [
              { properties: { card: { type: 'object', properties: { number: {} } } } },
              { properties: { iban: {} } },
            ],
          },
        },
      },
    };
    const schema = { allOf: [{ $ref: '#/components/schemas/Base' }, { $ref: '#/components/schemas/Either' }] };
    expect(unknownFieldViolations(doc, schema, { id: 'a', card: { number: 1 }, iban: 'x' })).toEqual([]);
    expect(
      unknownFieldViolations(doc, schema, { card: { numbr: 1 } }).map((v) => [v.field, v.params.suggestion]),
    ).toEqual([['body.card.numbr', 'number']]);
    expect(unknownFieldViolations(doc, { anyOf: [schema, { additionalProperties: true }] }, { anything: 1 })).toEqual(
      [],
    );
  });

  it('is suggested within a third of its length, ignoring case', () => {
    expect(closestName('timeToExpire', ['timeToExpiry', 'reason'])).toBe('timeToExpiry');
    expect(closestName('externaluserid', ['externalUserId'])).toBe('externalUserId');
    expect(closestName('typ', ['type'])).toBe('type');
    expect(closestName('colour', ['minutes'])).toBeUndefined();
    expect(closestName('ab', ['xy'])).toBeUndefined();
  });
});

describe('a body in UTF-8 (what is not UTF-8: sandbox-doors-agree)', () => {
  it('is told apart from what is not UTF-8 at every sequence length, and stored as sent', async () => {
    const reason = 'é ✓ 𝄞 Zürich';
    const answer = await call('POST', '/verifications', create({ reason }));
    expect(answer.status).toBe(201);
    expect(answer.body.reason).toBe(reason);
  });
});

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const v2Session = (metadata: string) =>
  `{"externalId":"door-1","country":"NL","phoneNo":"+31612345678","metadata":${metadata}}`;
const createV2 = (body: string) => call('POST', '/_sandbox/v2/verifications', body);
const v2List = () =>
  call('GET', '/v2/verifications/?pageSize=50', undefined, { authorization: `Bearer ${served.sandbox.accessToken}` });

describe('stored JSON is bounded at the door', () => {
  it('refuses 5,000-deep metadata with 400 naming the field, stores nothing, and later lists still answer', async () => {
    const before = (await v2List()).body.count;
    const res = await createV2(v2Session(nested(5000)));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: 'body.metadata is nested deeper than 32 levels' });
    const list = await v2List();
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(before);
  });

  it('takes metadata up to 32 levels and refuses 33', async () => {
    // The metadata object itself is the first level.
    expect((await createV2(v2Session(nested(32)))).status).toBe(201);
    expect((await createV2(v2Session(nested(33)))).status).toBe(400);
    expect((await v2List()).status).toBe(200);
  });

  it('refuses free-form metadata over 64 KiB as JSON, naming the field', async () => {
    const big = JSON.stringify({ blob: 'x'.repeat(70_000) });
    const res = await createV2(v2Session(big));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('body.metadata is larger than 65536 bytes as JSON');
    expect((await createV2(v2Session(JSON.stringify({ blob: 'x'.repeat(60_000) })))).status).toBe(201);
  });

  it('bounds every body: a deep value in any field is a 400 in its API shape, never a 500', async () => {
    const res = await call(
      'POST',
      '/verifications',
      `{"externalUserId":"5a0f7c1e-2b4d-4e8a-9c3f-000000000078","redirectUrl":"https://p.example/x","metadata":${nested(100_000)}}`,
    );
    expect(res.status).toBe(400);
    partnerDoc.expectValid('Error', res.body);
    expect(res.body.message).toBe('body.metadata is nested deeper than 32 levels');
    const scan = await call(
      'POST',
      '/_sandbox/verifications/00000000-0000-4000-8000-000000000000/scan',
      `{"outcome":"pass","document":${nested(40)}}`,
    );
    expect(scan.status).toBe(400);
    expect(scan.body.message).toBe('body.document is nested deeper than 32 levels');
    expect((await v2List()).status).toBe(200);
    expect((await call('GET', '/verifications')).status).toBe(200);
  });
});

/** Writes raw bytes on a new connection and reads until the sandbox closes it. */
function raw(bytes: string): Promise<{ text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(served.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve({ text }));
    socket.on('error', reject);
    socket.end(bytes, 'latin1');
  });
}
const answerOf = (text: string) => ({
  status: Number(text.split(' ')[1]),
  body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)),
});
const stillAnswers = async () => expect((await v2List()).status).toBe(200);

// Malformed framing gets Node's own answer: its parser's, not the sandbox's, so not tested here.
describe('what only a socket sends', () => {
  it('sends one answer when a refused request carries a body with broken framing', async () => {
    // text/plain is refused 415 before the body is read; the body's chunk size is not hexadecimal.
    const { text } = await raw(
      `POST /verifications HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nX-Auth-Key: ${served.sandbox.authKey}\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    );
    // Node's own 400 for the framing, and no 415 before or after it.
    expect(text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 400']);
  });

  it('refuses a request line without a version (HTTP/0.9, no Host) through the Host guard, and closes', async () => {
    const { text } = await raw('GET /partners\r\n\r\n');
    const answer = answerOf(text);
    expect(answer.status).toBe(403);
    partnerDoc.expectValid('Error', answer.body);
    expect(text.slice(0, text.indexOf('\r\n\r\n'))).toMatch(/\r\nconnection: close(\r\n|$)/i);
    await stillAnswers();
  });
});

describe('slow clients', () => {
  it('answers 408 and closes a connection that never finishes its headers (slowloris)', async () => {
    const started = Date.now();
    const socket = connect(served.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (text += c));
    socket.write(`GET /partners HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\n`);
    // One more header byte every 100 ms: the connection is never idle, the headers never end.
    const drip = setInterval(() => socket.writable && socket.write('X'), 100);
    const closedAfterMs = await new Promise<number>((resolve) =>
      socket.on('close', () => resolve(Date.now() - started)),
    );
    clearInterval(drip);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    // Closed after the bound (checked every half bound), long before Node's default of 60 s.
    expect(closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(closedAfterMs).toBeLessThan(10_000);
    await stillAnswers();
  }, 15_000);
});
