// A failed request changes nothing (S17):
// stored JSON is bounded in depth and size at the door, with a 400 naming the
// field; no input leads to a lasting 500; text/plain and charsets other than
// UTF-8 get 415; malformed HTTP gets Node's own 400 and a closed connection
// (raw sockets); a client that never finishes its headers gets Node's 408.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';
import { validatorFor } from './helpers/openapi.js';

let sandbox: Sandbox;
let port: number;
const partnerDoc = validatorFor('partner');
const HEADERS_TIMEOUT_MS = 600;

beforeAll(async () => {
  sandbox = await serveSandbox({ port: 0, validateResponses: true, headersTimeoutMs: HEADERS_TIMEOUT_MS });
  port = Number(new URL(sandbox.url).port);
});
afterAll(async () => {
  expect(sandbox.violations).toEqual([]);
  await sandbox.close();
});

const json = { 'Content-Type': 'application/json' };
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const v2Session = (metadata: string) =>
  `{"externalId":"door-1","country":"NL","phoneNo":"+31612345678","metadata":${metadata}}`;
const createV2 = (body: string) =>
  fetch(`${sandbox.url}/_sandbox/v2/verifications`, { method: 'POST', headers: json, body });
const v2List = () =>
  fetch(`${sandbox.url}/v2/verifications/?pageSize=50`, {
    headers: { Authorization: `Bearer ${sandbox.accessToken}` },
  });
const partnerCreate = (headers: Record<string, string>, body: string) =>
  fetch(`${sandbox.url}/verifications`, {
    method: 'POST',
    headers: { 'X-Auth-Key': sandbox.partner.activeAuthKey(), ...headers },
    body,
  });
const partnerBody = JSON.stringify({
  externalUserId: '5a0f7c1e-2b4d-4e8a-9c3f-000000000077',
  redirectUrl: 'https://partner.example.com/done',
});

describe('stored JSON is bounded at the door', () => {
  it('refuses 5,000-deep metadata with 400 naming the field, stores nothing, and later lists still answer', async () => {
    const before = (await (await v2List()).json()).count;
    const res = await createV2(v2Session(nested(5000)));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ statusCode: 400, message: 'body.metadata is nested deeper than 32 levels' });
    const list = await v2List();
    expect(list.status).toBe(200);
    expect((await list.json()).count).toBe(before);
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
    expect((await res.json()).message).toBe('body.metadata is larger than 65536 bytes as JSON');
    expect((await createV2(v2Session(JSON.stringify({ blob: 'x'.repeat(60_000) })))).status).toBe(201);
  });

  it('bounds every body: a deep value in any field is a 400 in its API shape, never a 500', async () => {
    const res = await partnerCreate(
      json,
      `{"externalUserId":"5a0f7c1e-2b4d-4e8a-9c3f-000000000078","redirectUrl":"https://p.example/x","metadata":${nested(100_000)}}`,
    );
    expect(res.status).toBe(400);
    const body = await res.json();
    partnerDoc.expectValid('Error', body);
    expect(body.message).toBe('body.metadata is nested deeper than 32 levels');
    const scan = await fetch(`${sandbox.url}/_sandbox/verifications/00000000-0000-4000-8000-000000000000/scan`, {
      method: 'POST',
      headers: json,
      body: `{"outcome":"pass","document":${nested(40)}}`,
    });
    expect(scan.status).toBe(400);
    expect((await scan.json()).message).toBe('body.document is nested deeper than 32 levels');
    expect((await v2List()).status).toBe(200);
    expect(
      (
        await fetch(`${sandbox.url}/verifications`, {
          headers: { 'X-Auth-Key': sandbox.partner.activeAuthKey(), ...json },
        })
      ).status,
    ).toBe(200);
  });
});

describe('media types', () => {
  it('refuses a charset other than UTF-8 with 415 and takes UTF-8 however it is written', async () => {
    for (const charset of ['latin1', 'ISO-8859-1', 'utf-16']) {
      const res = await partnerCreate({ 'Content-Type': `application/json; charset=${charset}` }, partnerBody);
      expect(res.status, charset).toBe(415);
      expect((await res.json()).message).toBe(`Content-Type charset must be utf-8, not ${charset.toLowerCase()}`);
    }
    for (const charset of ['utf-8', 'UTF-8', '"utf-8"', 'utf8']) {
      const res = await partnerCreate({ 'Content-Type': `application/json; charset=${charset}` }, partnerBody);
      expect(res.status, charset).toBe(201);
    }
  });
});

/** Writes raw bytes on a new connection and reads until the sandbox closes it. */
function raw(bytes: string, { endAfterWrite = true } = {}): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
    socket.on('error', reject);
    socket.write(bytes, 'latin1');
    if (endAfterWrite) socket.end();
  });
}
const answerOf = (text: string) => ({
  status: Number(text.split(' ')[1]),
  body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)),
});
/** Node's own answer to what its parser refuses: a status line, Connection: close, no body. */
const nodeAnswer = (text: string) => ({ statusLine: text.slice(0, text.indexOf('\r\n')), text });
const stillAnswers = async () => expect((await v2List()).status).toBe(200);

describe("HTTP framing: what Node's parser refuses gets Node's own answer", () => {
  const head = (path: string, framing: string) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n${framing}\r\n`;
  it.each([
    ['a chunk size that is not hexadecimal', 'Transfer-Encoding: chunked\r\n', 'zz\r\n{}\r\n0\r\n\r\n'],
    [
      'Content-Length together with Transfer-Encoding',
      'Content-Length: 9\r\nTransfer-Encoding: chunked\r\n',
      '2\r\n{}\r\n0\r\n\r\n',
    ],
    ['a body shorter than its Content-Length', 'Content-Length: 50\r\n', '{"externalUserId":'],
    ['a chunked body cut short', 'Transfer-Encoding: chunked\r\n', '40\r\n{"externalUserId":'],
  ])('answers %s with 400, closes the connection and stores nothing', async (_name, framing, body) => {
    const before = (await (await v2List()).json()).count;
    const { text } = await raw(head('/verifications', framing) + body);
    expect(nodeAnswer(text).statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    const { text: v2 } = await raw(head('/_sandbox/v2/verifications', framing) + body);
    expect(nodeAnswer(v2).statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect((await (await v2List()).json()).count).toBe(before);
  });

  it('answers an undecodable target with 400 and keeps answering the next request', async () => {
    const { text } = await raw(`GET /verifications/\xe9 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect(nodeAnswer(text).statusLine).toBe('HTTP/1.1 400 Bad Request');
    await stillAnswers();
  });

  it('answers an HTTP/1.1 request without Host with 400 and keeps answering the next request', async () => {
    const { text } = await raw(`GET /verifications HTTP/1.1\r\nX-Auth-Key: any\r\n\r\n`);
    expect(nodeAnswer(text).statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    await stillAnswers();
  });

  it('refuses an absolute-form target (for proxies) with 400, whatever host it names', async () => {
    for (const target of [`http://evil.example/partners`, `http://127.0.0.1:${port}/partners`, '*']) {
      const { text } = await raw(
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Auth-Key: any\r\nConnection: close\r\n\r\n`,
      );
      expect(answerOf(text), target).toMatchObject({
        status: 400,
        body: { message: 'path is not a valid request target' },
      });
    }
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
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (text += c));
    socket.write(`GET /partners HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
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
