// The sandbox as a fetch handler (`createSandboxFetch`; that its answers are
// the node:http server's: sandbox-doors-agree).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient } from '../src/partner.js';
import { createSandboxClient } from '../src/sandbox-client.js';
import { createSandboxFetch, type SandboxFetch } from '../src/sandbox/fetch.js';
import { createV2Client } from '../src/v2.js';
import { verifyWebhookSignature } from '../src/webhooks/index.js';

const BASE = 'https://api.example.test';
const created = () => ({
  externalUserId: crypto.randomUUID(),
  phoneNumber: '+4915112345678',
  redirectUrl: 'https://shop.example/verified',
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
    // Its waits are startSandbox's (sandbox-wait-for-webhook), wired to this door's webhooks.
    const completed = await sandbox.waitForWebhook(
      (e) => e.eventType === 'verification.updated' && e.data.verificationId === verification!.id,
      { timeoutMs: 30_000 },
    );
    expect(completed.data).toMatchObject({ status: 'started' });

    const { data: credentials } = await control.GET('/_sandbox/credentials');
    expect(credentials).toMatchObject({
      authKey: sandbox.authKey,
      accessToken: sandbox.accessToken,
      url: 'http://sandbox.localhost',
    });
    const { data: sessions } = await v2.GET('/v2/verifications/');
    expect(sessions!.items.length).toBeGreaterThan(0);

    await expect.poll(() => received.length).toBeGreaterThanOrEqual(3);
    const types: string[] = [];
    for (const r of received) {
      const text = await r.clone().text();
      expect([r.url, r.method]).toEqual(['https://partner.example.test/webhooks', 'POST']);
      expect(verifyWebhookSignature(text, r.headers.get('x-signature'), sandbox.authKey)).toBe(true);
      types.push(JSON.parse(text).eventType);
    }
    expect(types).toEqual(expect.arrayContaining(['verification.created', 'verification.updated']));
  });
});

describe("createSandboxFetch's own options (the declared ones: sandbox-options)", () => {
  it.each([
    [{ url: 'http://sandbox.localhost/base' }, /url must be an http:\/\/ or https:\/\/ origin/],
    [{ fetch: 'https://partner.example.test' }, /fetch must be a function/],
    [{ now: new Date() }, /now must be a function/],
  ])('%j is refused, naming the option', async (options, message) => {
    await expect(createSandboxFetch(options as never)).rejects.toThrow(message);
  });

  it('runs its clock from the time given, and tells a call with a URL instead of a Request what to pass', async () => {
    const sandbox = await createSandboxFetch({ now: () => new Date('2026-03-01T09:00:00Z') });
    const res = await sandbox.fetch(new Request('http://localhost/_sandbox/clock'));
    expect(((await res.json()) as { now: string }).now).toBe('2026-03-01T09:00:00.000Z');
    await expect(sandbox.fetch('https://api.example.test/partners' as never)).rejects.toThrow(
      /fetch takes a Request .* new Request\(url, init\)/,
    );
    sandbox.close();
  });
});
