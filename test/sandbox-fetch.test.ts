// The sandbox as a fetch handler (`createSandboxFetch`): the same answers as
// the node:http server for the same requests (both doors share one core),
// the typed clients and a plain Request at any base URL, the end user's
// page, webhooks delivered through the `fetch` the options give and signed
// as the server signs them, and option mistakes named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient } from '../src/partner.js';
import { createSandboxClient } from '../src/sandbox-client.js';
import { createSandboxFetch, type SandboxFetch } from '../src/sandbox/fetch.js';
import { startSandbox } from '../src/sandbox/in-process.js';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';
import { createV2Client } from '../src/v2.js';
import { verifyWebhookSignature } from '../src/webhooks/index.js';

const AUTH_KEY = 'sbx_fetch_door_test_key';
const ACCESS_TOKEN = 'v2_fetch_door_test_token';
const BASE = 'https://api.example.test';
const created = () => ({
  externalUserId: crypto.randomUUID(),
  phoneNumber: '+4915112345678',
  redirectUrl: 'https://shop.example/verified',
});

describe('one core, two doors: the fetch handler answers as the server does', () => {
  let server: Sandbox;
  let handler: SandboxFetch;
  beforeAll(async () => {
    server = await serveSandbox({
      port: 0,
      authKey: AUTH_KEY,
      accessToken: ACCESS_TOKEN,
      onDeliveryFailure: () => undefined,
    });
    handler = await createSandboxFetch({ authKey: AUTH_KEY, accessToken: ACCESS_TOKEN });
  });
  afterAll(async () => {
    handler.close();
    await server.close();
  });

  const key = { 'X-Auth-Key': AUTH_KEY };
  const bearer = { Authorization: `Bearer ${ACCESS_TOKEN}` };
  const json = { 'Content-Type': 'application/json' };
  // Requests whose answers name no id the sandbox made: refusals, and the v2 sessions both seed from the document.
  const requests: [string, string, RequestInit][] = [
    ['v2 list', '/v2/verifications/?pageSize=2', { headers: bearer }],
    ['v2 list, filtered', '/v2/verifications/?status=completed', { headers: bearer }],
    ['v2 list, unknown query parameter', '/v2/verifications/?colour=red', { headers: bearer }],
    [
      'v2 session, not found',
      `/v2/verifications/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
      { headers: bearer },
    ],
    ['v2 without the slash', '/v2/verifications', { headers: bearer }],
    ['v2 with the partner key', '/v2/verifications/', { headers: key }],
    ['partner without a key', '/verifications', { headers: json }],
    ['partner with the v2 token', '/verifications', { headers: { ...bearer, ...json } }],
    ['partner, wrong page size', '/verifications?pageSize=0', { headers: { ...key, ...json } }],
    ['partner create, no Content-Type', '/verifications', { method: 'POST', headers: key, body: '{}' }],
    [
      'partner create, broken JSON',
      '/verifications',
      { method: 'POST', headers: { ...key, ...json }, body: '{"phoneNumber": +49}' },
    ],
    ['partner create, missing fields', '/verifications', { method: 'POST', headers: { ...key, ...json }, body: '{}' }],
    [
      'partner create, prototype key',
      '/verifications',
      { method: 'POST', headers: { ...key, ...json }, body: '{"__proto__": {}}' },
    ],
    [
      'partner create, unknown field',
      '/verifications',
      {
        method: 'POST',
        headers: { ...key, ...json },
        body: '{"externalUserId": "00000000-0000-4000-8000-000000000000", "redirectUrl": "https://shop.example/verified", "timeToExpire": 5}',
      },
    ],
    [
      'partner create, invalid UTF-8',
      '/verifications',
      {
        method: 'POST',
        headers: { ...key, ...json },
        body: new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
      },
    ],
    [
      'partner create, over 1 MiB',
      '/verifications',
      { method: 'POST', headers: { ...key, ...json }, body: `{"x":"${'a'.repeat(1024 * 1024)}"}` },
    ],
    ['no such operation', '/nowhere', { headers: key }],
    ['control POST without JSON', '/_sandbox/seed', { method: 'POST' }],
    ['control clock refused', '/_sandbox/clock/advance', { method: 'POST', headers: json, body: '{"minutes": -1}' }],
    ['the documents', '/openapi/v2.json', {}],
  ];

  it.each(requests)('%s', async (_, target, init) => {
    const [viaPort, viaFetch] = await Promise.all([
      fetch(`${server.url}${target}`, init),
      handler.fetch(new Request(`${BASE}${target}`, init)),
    ]);
    const seen = async (res: Response) => ({
      status: res.status,
      type: res.headers.get('content-type'),
      reason: res.headers.get('x-sandbox-reason'),
      body: await res.text(),
    });
    expect(await seen(viaFetch)).toEqual(await seen(viaPort));
  });

  it('HEAD answers with the headers of GET and no body', async () => {
    const res = await handler.fetch(new Request(`${BASE}/v2/verifications/`, { method: 'HEAD', headers: bearer }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.text()).toBe('');
  });
});

describe('createSandboxFetch at any base URL', () => {
  let sandbox: SandboxFetch;
  const received: Request[] = [];
  beforeAll(async () => {
    sandbox = await createSandboxFetch({
      webhookUrl: 'https://partner.example.test/webhooks',
      fetch: async (request) => {
        received.push(request);
        return new Response(null, { status: 200 });
      },
    });
  });
  afterAll(() => sandbox.close());

  it('serves the typed clients, the end user page and v2 at a base URL of the caller choosing, and delivers signed webhooks through the given fetch', async () => {
    const partner = createPartnerClient({ baseUrl: BASE, authKey: sandbox.authKey, fetch: sandbox.fetch });
    const v2 = createV2Client({
      baseUrl: 'https://v2.example.test',
      accessToken: sandbox.accessToken,
      fetch: sandbox.fetch,
    });
    const control = createSandboxClient({ baseUrl: 'http://localhost:9', fetch: sandbox.fetch });

    const { data: verification, response } = await partner.POST('/verifications', { body: created() });
    expect(response.status).toBe(201);
    expect(verification!.url).toMatch(/^http:\/\/sandbox\.localhost\/s\//);

    // The end user: the link opens the session, the page's Complete finishes it.
    const page = await sandbox.fetch(new Request(verification!.url!));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<dd id="status">started</dd>');
    const done = await sandbox.fetch(
      new Request(verification!.url!, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'outcome=complete',
      }),
    );
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('https://shop.example/verified');
    const { data: read } = await partner.GET('/verifications/{verificationId}', {
      params: { path: { verificationId: verification!.id } },
    });
    expect(read!.status).toBe('completed');

    const { data: credentials } = await control.GET('/_sandbox/credentials');
    expect(credentials).toMatchObject({
      authKey: sandbox.authKey,
      accessToken: sandbox.accessToken,
      url: 'http://sandbox.localhost',
    });
    const { data: sessions } = await v2.GET('/v2/verifications/');
    expect(sessions!.items.length).toBeGreaterThan(0);

    await expect.poll(() => received.length).toBeGreaterThanOrEqual(3);
    const bodies = await Promise.all(
      received.map(async (r) => ({
        url: r.url,
        method: r.method,
        signature: r.headers.get('x-signature'),
        text: await r.clone().text(),
      })),
    );
    for (const body of bodies) {
      expect(body).toMatchObject({ url: 'https://partner.example.test/webhooks', method: 'POST' });
      expect(verifyWebhookSignature(body.text, body.signature, sandbox.authKey)).toBe(true);
    }
    expect(bodies.map((b) => JSON.parse(b.text).eventType)).toEqual(
      expect.arrayContaining(['verification.created', 'verification.updated']),
    );
  });

  it('follows a key rotation, and answers requests to any host (its door is reached in-process only)', async () => {
    const before = sandbox.authKey;
    const rotated = await sandbox.fetch(
      new Request('https://elsewhere.example/auth-keys', {
        method: 'POST',
        headers: { 'X-Auth-Key': before, 'Content-Type': 'application/json' },
        body: '{}',
      }),
    );
    expect(rotated.status).toBe(201);
    expect(sandbox.authKey).not.toBe(before);
    const old = await sandbox.fetch(
      new Request(`${BASE}/partners`, { headers: { 'X-Auth-Key': before, 'Content-Type': 'application/json' } }),
    );
    expect(old.status).toBe(401);
    expect(old.headers.get('x-sandbox-reason')).toMatch(/rotated away/);
  });
});

describe('the options of createSandboxFetch and startSandbox, checked one way', () => {
  it.each([
    [{ webhookUrl: 'partner.example.test/hooks' }, /webhookUrl must be an http:\/\/ or https:\/\/ URL/],
    [{ retryIntervalSeconds: 0 }, /retryIntervalSeconds must be a positive number of seconds/],
    [{ url: 'http://sandbox.localhost/base' }, /url must be an http:\/\/ or https:\/\/ origin/],
    [{ authKey: ' ' }, /authKey must be a non-empty string/],
    [{ fetch: 'https://partner.example.test' }, /fetch must be a function/],
  ])('%j is refused, naming the option', async (options, message) => {
    await expect(createSandboxFetch(options as never)).rejects.toThrow(message);
  });

  it.each([
    [{ port: 70000 }, /^startSandbox: port must be a port number, 0 to 65535/],
    [{ state: ' ' }, /^startSandbox: state must be a non-empty string/],
    [{ webhookUrl: 'partner.example.test/hooks' }, /^startSandbox: webhookUrl must be an http:\/\/ or https:\/\/ URL/],
    [{ deliveryTimeoutSeconds: -1 }, /^startSandbox: deliveryTimeoutSeconds must be a positive number of seconds/],
    [{ onWebhook: 'https://partner.example.test/hooks' }, /^startSandbox: onWebhook must be a function/],
  ])('startSandbox refuses %j the same way, before it listens', async (options, message) => {
    await expect(startSandbox(options as never)).rejects.toThrow(message);
  });

  it('a call with a URL instead of a Request is told what to pass', async () => {
    const sandbox = await createSandboxFetch();
    await expect(sandbox.fetch('https://api.example.test/partners' as never)).rejects.toThrow(
      /fetch takes a Request .* new Request\(url, init\)/,
    );
    sandbox.close();
  });

  it('the clock runs from the time given', async () => {
    const sandbox = await createSandboxFetch({ now: () => new Date('2026-03-01T09:00:00Z') });
    const res = await sandbox.fetch(new Request('http://localhost/_sandbox/clock'));
    expect(((await res.json()) as { now: string }).now).toBe('2026-03-01T09:00:00.000Z');
    sandbox.close();
  });
});
