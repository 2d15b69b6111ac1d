// What delivery guards against, as a careful provider does: attempts that
// never settle, a receiver answering with a redirect, a webhook address
// carrying a user or password, and (with --state) a change not yet on disk.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';
import { createSandboxFetch, type SandboxFetch } from '../src/sandbox/fetch.js';
import { startSandbox } from '../src/sandbox/in-process.js';
import { serveSandbox } from '../src/sandbox/server.js';
import type { Sandbox } from './helpers/served-sandbox.js';
import { HANG_CEILING_MS } from './helpers/ceilings.js';
import { send, startReceiver } from './helpers/served-sandbox.js';
import { askCore, sandboxCore } from './helpers/wrapped-core.js';

const BIN = path.join(ROOT, 'generated', 'lib', 'src', 'cli', 'index.js');
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

/** Calls the fetch handler's partner API. */
async function call(sandbox: SandboxFetch, target: string, method = 'GET', body?: string) {
  const res = await sandbox.fetch(
    new Request(`http://sandbox.test${target}`, {
      method,
      body,
      headers: { 'X-Auth-Key': sandbox.authKey, 'Content-Type': 'application/json' },
    }),
  );
  return { status: res.status, body: await res.json() };
}

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
    for (let i = 0; i < 40; i++) ids.push((await call(sandbox, '/verifications', 'POST', createBody())).body.id);
    await expect.poll(() => attempted.size, { timeout: 10_000 }).toBe(40);
    const [first] = (await call(sandbox, `/verifications/${ids[0]}/webhooks`)).body.webhooks;
    expect(first).toMatchObject({ success: false, reason: 'no answer within 0.1 s (the delivery timeout)' });
    hung = false;
    await expect.poll(() => delivered.size, { timeout: 10_000 }).toBe(40);
    for (const id of ids) {
      await expect
        .poll(async () => (await call(sandbox, `/verifications/${id}/webhooks`)).body.webhooks[0].success)
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
    const reason =
      'the webhook address answered 307, a redirect, which webhooks never follow: set webhookUrl to the address that answers 200';
    expect((await history())[0]).toMatchObject({ success: false, reason });
    expect(failures[0]).toContain(reason);
    expect(elsewhere.arrivals).toEqual([]);
  });
});

describe('a webhook address with a user or password', () => {
  const rule =
    'a webhook address must not carry a user or password (https://user:password@…): webhooks prove they come from the service by X-SIGNATURE; drop the credentials from the address and check X-SIGNATURE in the receiver';

  it('is refused by PUT /partners with 400, naming the rule, and the address stays as it was', async () => {
    const sandbox = await createSandboxFetch({
      webhookUrl: RECEIVER,
      fetch: async () => new Response(null, { status: 200 }),
    });
    closers.push(() => sandbox.close());
    const refused = await call(sandbox, '/partners', 'PUT', JSON.stringify({ webhookUrl: WITH_PASSWORD }));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(`webhookUrl refused: ${rule}`);
    expect((await call(sandbox, '/partners')).body.webhookUrl ?? RECEIVER).toBe(RECEIVER);
    const userOnly = await call(
      sandbox,
      '/partners',
      'PUT',
      JSON.stringify({ webhookUrl: 'https://partner@hooks.example.com/in' }),
    );
    expect(userOnly.status).toBe(400);
  });

  it('is refused as an option of startSandbox, createSandboxFetch and the server, before anything starts', async () => {
    await expect(startSandbox({ webhookUrl: WITH_PASSWORD })).rejects.toThrow(
      `startSandbox: webhookUrl refused: ${rule}`,
    );
    await expect(createSandboxFetch({ webhookUrl: WITH_PASSWORD })).rejects.toThrow(
      `createSandboxFetch: webhookUrl refused: ${rule}`,
    );
    await expect(serveSandbox({ port: 0, webhookUrl: WITH_PASSWORD })).rejects.toThrow(`webhook URL refused: ${rule}`);
  });

  it('is refused as --webhook-url by the sandbox command', { timeout: HANG_CEILING_MS }, async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--webhook-url', WITH_PASSWORD]);
    closers.push(() => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code).not.toBe(0);
    expect(stderr).toContain(`webhook URL refused: ${rule}`);
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
