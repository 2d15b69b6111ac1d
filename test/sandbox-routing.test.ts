// How the sandbox's own router (node:http, S23) matches request
// targets: exactly as documented, segment by segment after percent-decoding,
// static names before parameters; what it answers when nothing matches; HEAD
// as GET; and one answer per request when a refused request's body is broken.
import { connect } from 'node:net';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';
import { validatorFor } from './helpers/openapi.js';

let sandbox: Sandbox;
let port: number;
const partnerDoc = validatorFor('partner');
const authKey = 'sbx_routing_key_4f2a9c';
const accessToken = 'v2_routing_token_7b1e';
const SEEDED_V2 = '6f1c2b9e-4d3a-4e8b-9a61-2f7d0c5e8b14';

beforeAll(async () => {
  sandbox = await serveSandbox({ port: 0, authKey, accessToken, validateResponses: true });
  port = Number(new URL(sandbox.url).port);
});
afterAll(async () => {
  expect(sandbox.violations).toEqual([]);
  await sandbox.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** node:http, which sends the target as written (fetch would normalize it). */
function send(method: string, target: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  // Both credentials: each API reads only its own; the partner API's type on every call.
  const credential = {
    Authorization: `Bearer ${accessToken}`,
    'X-Auth-Key': authKey,
    'Content-Type': 'application/json',
  };
  return new Promise((resolve, reject) => {
    const r = request(
      { host: '127.0.0.1', port, method, path: target, headers: { ...credential, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    r.on('error', reject);
    r.end(body);
  });
}
const json = (a: Answer) => JSON.parse(a.text);

describe('matching', () => {
  it('matches paths exactly: the trailing slash counts, duplicate slashes are not merged, case counts', async () => {
    expect((await send('GET', '/v2/verifications/')).status).toBe(200);
    expect(json(await send('GET', '/v2/verifications'))).toMatchObject({ statusCode: 404, code: 'NOT_FOUND_ERROR' });
    expect((await send('GET', '/partners')).status).toBe(200);
    for (const target of ['/partners/', '//partners', '/PARTNERS', '/v2//verifications/']) {
      expect((await send('GET', target)).status, target).toBe(404);
    }
  });

  it('compares percent-decoded segments, and keeps an encoded slash inside its segment', async () => {
    expect((await send('GET', '/%70artners')).status).toBe(200);
    expect(json(await send('GET', `/%762/verifications/${SEEDED_V2}`)).id).toBe(SEEDED_V2);
    // `a%2Fb` is one verificationId, `a/b`, not two segments.
    expect(await send('GET', '/verifications/a%2Fb')).toMatchObject({
      status: 404,
      text: JSON.stringify({ statusCode: 404, message: 'Verification a/b not found' }),
    });
  });

  it('answers an undecodable path or a parameter over 100 characters as a bad request target', async () => {
    for (const target of [
      '/verifications/%zz',
      '/verifications/%C3%28',
      '/nowhere/%',
      `/verifications/${'a'.repeat(101)}`,
    ]) {
      const res = await send('GET', target);
      expect(res.status, target).toBe(400);
      partnerDoc.expectValid('Error', json(res));
      expect(json(res).message, target).toBe('path is not a valid request target');
    }
    // 100 characters still reach the operation.
    expect(json(await send('GET', `/verifications/${'a'.repeat(100)}`)).message).toBe(
      `Verification ${'a'.repeat(100)} not found`,
    );
  });

  it('answers a method the path does not take with 404, naming method and path', async () => {
    const res = await send('DELETE', '/partners?x=1');
    expect(res.status).toBe(404);
    expect(json(res)).toEqual({ statusCode: 404, message: 'no operation DELETE /partners' });
    expect((await send('OPTIONS', '/partners')).status).toBe(404);
  });

  it('names the documented path when a request differs from it by a trailing slash', async () => {
    const v2 = await send('GET', '/v2/verifications?pageSize=1', { Authorization: `Bearer ${accessToken}` });
    expect(v2.status).toBe(404);
    // v2's body keeps the documented 404; the header names the path.
    expect(json(v2)).toEqual({ statusCode: 404, code: 'NOT_FOUND_ERROR', message: 'Not found' });
    expect(v2.headers['x-sandbox-reason']).toBe(
      'no operation GET /v2/verifications; the documented path is /v2/verifications/',
    );
    const partner = await send('GET', '/partners/');
    expect(partner.status).toBe(404);
    expect(json(partner).message).toBe('no operation GET /partners/; the documented path is /partners');
    expect(json(await send('GET', '/no-such-thing/')).message).toBe('no operation GET /no-such-thing/');
  });

  it('reads the query up to a fragment, and refuses an absolute-form target (for proxies)', async () => {
    expect(json(await send('GET', '/v2/verifications/?pageSize=1#pageSize=80')).items).toHaveLength(1);
    const absolute = await send('GET', `http://127.0.0.1:${port}/partners`);
    expect(absolute.status).toBe(400);
    expect(json(absolute).message).toBe('path is not a valid request target');
  });
});

describe('answers', () => {
  it('answers HEAD as GET without the body, with its length', async () => {
    const get = await send('GET', '/partners');
    const head = await send('HEAD', '/partners');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('marks every JSON answer nosniff: success, refusal, unknown path, the documents', async () => {
    for (const [method, target] of [
      ['GET', '/partners'],
      ['GET', '/verifications/nope'],
      ['POST', '/no-such-thing'],
      ['GET', '/openapi/partner.json'],
      ['GET', '/v2/verifications/?pageSize=99'],
    ]) {
      const res = await send(method, target, { Authorization: `Bearer ${accessToken}` });
      expect(res.headers['content-type'], target).toMatch(/^application\/json/);
      expect(res.headers['x-content-type-options'], `${method} ${target}`).toBe('nosniff');
    }
  });

  it('answers an unknown path 404 whatever its body', async () => {
    for (const body of ['{"a":', JSON.stringify({ big: 'x'.repeat(1024 * 1024 + 1) })]) {
      const res = await send('POST', '/no-such-thing', { 'Content-Type': 'application/json' }, body);
      expect(res.status).toBe(404);
      expect(json(res).message).toBe('no operation POST /no-such-thing');
    }
  });

  it('sends one answer when a refused request carries a body with broken framing', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.setEncoding('latin1');
      socket.on('data', (c: string) => (received += c));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
      // text/plain is refused 415 before the body is read; the body's chunk size is not hexadecimal.
      socket.end(
        `POST /verifications HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Auth-Key: ${authKey}\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      );
    });
    // Node's own 400 for the framing, and no 415 before or after it.
    expect(text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 400']);
  });
});
