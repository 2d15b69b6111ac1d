// Refusals in the error shape, through both doors (node:http and the fetch
// handler): a streamed body far over a limit is refused 413 having read
// little past it; a compressed body gets 415; `GET /verifications/` gets the
// 404 naming `/verifications`; two Content-Type headers get 400; the end
// user's page answers a verification closed at the same instant with its
// closed page or the error redirect, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatorFor } from './helpers/openapi.js';
import { FETCH_BASE as BASE, openTwoDoors, type Header, type TwoDoors } from './helpers/two-doors.js';

const AUTH_KEY = 'door-refusals-key';
const ACCESS_TOKEN = 'door-refusals-token';
const partnerDoc = validatorFor('partner');

let doors: TwoDoors;

beforeAll(async () => {
  doors = await openTwoDoors(AUTH_KEY, ACCESS_TOKEN);
});
afterAll(async () => {
  await doors.close();
  expect(doors.server.violations).toEqual([]);
});

const both = (method: string, target: string, headers: Header[], body = '') =>
  doors.send(method, target, headers, body);

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

const key: Header = ['X-Auth-Key', AUTH_KEY];
const json: Header = ['Content-Type', 'application/json'];
const createBody = JSON.stringify({
  externalUserId: '5a0f7c1e-2b4d-4e8a-9c3f-6d1b8e2a7f40',
  redirectUrl: 'https://partner.example.com/kyc/done',
  errorRedirectUrl: 'https://partner.example.com/kyc/error',
});

describe('the fetch door reads no more than it accepts', () => {
  it('refuses a streamed 256 MB body with 413 having pulled under 2 MiB', async () => {
    const { stream, counted } = lazyBody(256 * 1024 * 1024, 64 * 1024);
    const res = await doors.handler.fetch(
      new Request(`${BASE}/verifications`, {
        method: 'POST',
        headers: { 'X-Auth-Key': AUTH_KEY, 'Content-Type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ statusCode: 413, message: 'request body is larger than 1 MiB' });
    expect(counted.pulled).toBeGreaterThan(1024 * 1024);
    expect(counted.pulled).toBeLessThan(2 * 1024 * 1024);
  });

  it('refuses a streamed form over 16 KiB on the end user page with 413 having pulled under 256 KiB', async () => {
    const created = await doors.handler.fetch(
      new Request(`${BASE}/verifications`, {
        method: 'POST',
        headers: { 'X-Auth-Key': AUTH_KEY, 'Content-Type': 'application/json' },
        body: createBody,
      }),
    );
    const { url } = (await created.json()) as { url: string };
    const { stream, counted } = lazyBody(256 * 1024 * 1024, 4 * 1024);
    const res = await doors.handler.fetch(
      new Request(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(await res.text()).toContain('The form sent is larger than 16 KiB.');
    expect(counted.pulled).toBeGreaterThan(16 * 1024);
    expect(counted.pulled).toBeLessThan(256 * 1024);
  });
});

describe('every refusal in the error shape, through both doors', () => {
  it.each(['gzip', 'br'])(
    'answers a body sent with Content-Encoding: %s with 415 saying to send it uncompressed',
    async (encoding) => {
      for (const answer of await both(
        'POST',
        '/verifications',
        [key, json, ['Content-Encoding', encoding]],
        createBody,
      )) {
        expect(answer.status).toBe(415);
        const body = JSON.parse(answer.body);
        partnerDoc.expectValid('Error', body);
        expect(body.message).toBe(
          `Content-Encoding must be identity, not ${encoding}: the sandbox takes uncompressed bodies; send the JSON as it is, without Content-Encoding`,
        );
      }
    },
  );

  it('answers GET /verifications/ with the 404 naming /verifications', async () => {
    for (const answer of await both('GET', '/verifications/', [key])) {
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toEqual({
        statusCode: 404,
        message: 'no operation GET /verifications/; the documented path is /verifications',
      });
    }
  });

  it('answers two Content-Type headers with 400, on the partner, v2 and control APIs', async () => {
    const twice: Header[] = [json, ['Content-Type', 'application/json']];
    for (const answer of await both('POST', '/verifications', [key, ...twice], createBody)) {
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({
        statusCode: 400,
        message:
          'Content-Type is given more than once (application/json, application/json); send one Content-Type header: application/json',
      });
    }
    for (const answer of await both('POST', '/_sandbox/clock/advance', twice, '{"minutes": 1}')) {
      expect(answer.status).toBe(400);
      partnerDoc.expectValid('Error', JSON.parse(answer.body));
    }
    for (const answer of await both('POST', '/_sandbox/v2/verifications', twice, '{}')) {
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).message).toMatch(/^Content-Type is given more than once/);
    }
  });
});

describe('the end user page and a close at the same instant', () => {
  const CLOSED_PAGE = /The link no longer works: the verification is closed/;

  /** Opens (GET) or posts the page of a new verification while closing it, many times; every answer is the page, the closed page or a redirect. */
  async function race(
    send: (url: string, init?: RequestInit) => Promise<{ status: number; text: string }>,
    base: string,
  ) {
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
        body: turns % 2 ? createBody : JSON.stringify({ ...JSON.parse(createBody), errorRedirectUrl: undefined }),
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
  }

  it('answers through the fetch handler with the page, the closed page or a redirect, never a 500', async () => {
    await race(async (url, init) => {
      const res = await doors.handler.fetch(new Request(url, { ...init, redirect: 'manual' }));
      return { status: res.status, text: await res.text() };
    }, BASE);
  });

  it('answers through node:http with the page, the closed page or a redirect, never a 500', async () => {
    await race(async (url, init) => {
      const res = await fetch(url, { ...init, redirect: 'manual' });
      return { status: res.status, text: await res.text() };
    }, doors.server.url);
  });
});
