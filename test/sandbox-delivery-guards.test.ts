// What delivery guards against, as a careful provider does: attempts that
// never settle, a receiver answering with a redirect, a webhook address
// carrying a user or password, and (with --state) a change not yet on disk.
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxCommand } from '../src/cli/sandbox.js';
import { createSandboxFetch } from '../src/sandbox/fetch.js';
import { startSandbox } from '../src/sandbox/in-process.js';
import { serveSandbox } from '../src/sandbox/server.js';
import { fetchCalls, type Sandbox, send, startReceiver } from './helpers/served-sandbox.js';
import { askCore, sandboxCore } from './helpers/wrapped-core.js';

const RECEIVER = 'http://receiver.test/hooks';
const WITH_PASSWORD = 'http://partner:secret@127.0.0.1:9/hooks';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

let n = 0;
const createBody = () => {
  n += 1;
  return JSON.stringify({
    externalUserId: `3e8a1c5d-9b2f-4a60-8c71-${String(n).padStart(12, '0')}`,
    redirectUrl: 'https://partner.example.com/kyc/done',
    phoneNumbers: [{ phoneNumber: `+4917${String(50_000_000 + n)}`, isVerified: false }],
  });
};

describe('an attempt that gets no answer', () => {
  it('counts as failed at the delivery timeout even when the fetch never settles and ignores its abort signal', async () => {
    let hung = true;
    const attempted = new Set<string>();
    const delivered = new Set<string>();
    const sandbox = await createSandboxFetch({
      webhookUrl: RECEIVER,
      deliveryTimeoutSeconds: 0.1,
      retryIntervalSeconds: 0.2,
      onDeliveryFailure: () => {},
      fetch: async (request) => {
        const { eventId } = JSON.parse(await request.text());
        attempted.add(eventId);
        // Never settles, whatever the signal says: what some aborted fetches do on Node 20.
        if (hung) return new Promise<Response>(() => {});
        delivered.add(eventId);
        return new Response(null, { status: 200 });
      },
    });
    closers.push(() => sandbox.close());
    // More events than attempts may be in flight: the later ones need the slots the hung ones held.
    const ids: string[] = [];
    const call = fetchCalls(sandbox);
    for (let i = 0; i < 40; i++) ids.push((await call('POST', '/verifications', createBody())).body.id);
    await expect.poll(() => attempted.size, { timeout: 10_000 }).toBe(40);
    const [first] = (await call('GET', `/verifications/${ids[0]}/webhooks`)).body.webhooks;
    expect(first).toMatchObject({ success: false, reason: 'no answer within 0.1 s (the delivery timeout)' });
    hung = false;
    await expect.poll(() => delivered.size, { timeout: 10_000 }).toBe(40);
    for (const id of ids) {
      await expect
        .poll(async () => (await call('GET', `/verifications/${id}/webhooks`)).body.webhooks[0].success)
        .toBe(true);
    }
  });
});

describe('a receiver answering with a redirect', () => {
  it('gets a failed attempt, recorded with its status, and the address it names receives nothing', async () => {
    const elsewhere = await startReceiver();
    const redirecting = await startReceiver((_arrival, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/stolen` }).end();
      return undefined;
    });
    closers.push(elsewhere.close, redirecting.close);
    const failures: string[] = [];
    const sandbox: Sandbox = await serveSandbox({
      port: 0,
      webhookUrl: redirecting.url,
      retryIntervalSeconds: 60,
      onDeliveryFailure: (line) => failures.push(line),
    });
    closers.unshift(() => sandbox.close());
    const created = await send(sandbox.url, sandbox.authKey, 'POST', '/verifications', createBody());
    const history = async () =>
      (await send(sandbox.url, sandbox.authKey, 'GET', `/verifications/${created.body.id}/webhooks`)).body.webhooks;
    await expect.poll(async () => (await history())[0].retryAt, { timeout: 5000 }).not.toBeNull();
    const [attempt] = await history();
    expect(attempt).toMatchObject({ success: false, reason: expect.stringMatching(/\b307\b/) });
    expect(failures[0]).toContain(attempt.reason);
    expect(elsewhere.arrivals).toEqual([]);
  });
});

describe('a webhook address with a user or password', () => {
  it('is refused by PUT /partners with 400, naming the rule, and the address stays as it was', async () => {
    const sandbox = await createSandboxFetch({
      webhookUrl: RECEIVER,
      fetch: async () => new Response(null, { status: 200 }),
    });
    closers.push(() => sandbox.close());
    const call = fetchCalls(sandbox);
    const refused = await call('PUT', '/partners', JSON.stringify({ webhookUrl: WITH_PASSWORD }));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^webhookUrl refused: .*X-SIGNATURE/);
    expect((await call('GET', '/partners')).body.webhookUrl ?? RECEIVER).toBe(RECEIVER);
    const userOnly = await call(
      'PUT',
      '/partners',
      JSON.stringify({ webhookUrl: 'https://partner@hooks.example.com/in' }),
    );
    expect(userOnly.status).toBe(400);
  });

  it.each([
    ['startSandbox', () => startSandbox({ webhookUrl: WITH_PASSWORD })],
    ['createSandboxFetch', () => createSandboxFetch({ webhookUrl: WITH_PASSWORD })],
    ['the server', () => serveSandbox({ port: 0, webhookUrl: WITH_PASSWORD })],
    ['the sandbox command', () => sandboxCommand(['--port', '0', '--webhook-url', WITH_PASSWORD], () => undefined)],
  ])('is refused as an option of %s, naming the rule, before anything starts', async (_, start) => {
    await expect(start()).rejects.toThrow(/refused: .*X-SIGNATURE/);
  });
});

describe('with --state', () => {
  it('sends no webhook about a change before the change is on disk', async () => {
    const sent: string[] = [];
    let onDisk = () => {};
    const written = new Promise<void>((r) => (onDisk = r));
    // The core as the server builds it with --state, its commit resolving when the journal's fsync would.
    const core = sandboxCore({
      webhookUrl: RECEIVER,
      fetch: async (request) => {
        sent.push(JSON.parse(await request.text()).eventType);
        return new Response(null, { status: 200 });
      },
      commit: (answer) => written.then(() => answer),
    });
    closers.push(() => core.delivery.close());
    const answered = askCore(core, 'POST', '/verifications', createBody());
    await new Promise((r) => setTimeout(r, 200));
    expect(sent).toEqual([]);
    onDisk();
    expect((await answered)?.status).toBe(201);
    await expect.poll(() => sent).toEqual(['verification.created']);
  });
});
