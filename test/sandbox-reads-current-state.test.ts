// A client polling the sandbox sees every change at once: a GET read again
// answers the same JSON text while nothing has changed, and the change as
// soon as one is made. Each test reads, changes the state one way, and reads
// again: through either API, the control API, time alone, the in-process
// state and a webhook delivery; the credential is checked on every read.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';

let sandbox: Sandbox;
// Held here, so that the reads themselves are all the test does between changes.
let key = '';
let receiverUrl = '';
let receiverStatus = 503;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(receiverStatus).end());
});

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  sandbox = await serveSandbox({ port: 0, validateResponses: true, retryIntervalSeconds: 0.1 });
  key = sandbox.authKey;
});
afterEach(() => {
  receiverStatus = 503;
});
afterAll(async () => {
  expect(sandbox.violations).toEqual([]);
  await sandbox.close();
  await new Promise<void>((r) => receiver.close(() => r()));
});

const partner = async (path: string, init: RequestInit = {}, withKey = key) => {
  const res = await fetch(`${sandbox.url}${path}`, {
    ...init,
    headers: { 'x-auth-key': withKey, 'content-type': 'application/json', ...init.headers },
  });
  return { status: res.status, text: await res.text() };
};
const control = (path: string, body: unknown = {}) =>
  fetch(`${sandbox.url}/_sandbox${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

let phone = 0;
async function create(timeToExpiry = 60): Promise<string> {
  phone += 1;
  const { status, text } = await partner('/verifications', {
    method: 'POST',
    body: JSON.stringify({
      externalUserId: `7c3e9a10-5b2d-4f8e-9a61-${String(phone).padStart(12, '0')}`,
      redirectUrl: 'https://shop.example.com/kyc/done',
      phoneNumbers: [{ phoneNumber: `+4915190${String(phone).padStart(6, '0')}`, isVerified: false }],
      requirements: [{ type: 'document' }],
      timeToExpiry,
    }),
  });
  expect(status, text).toBe(201);
  return JSON.parse(text).id;
}
const statusOf = async (id: string) => JSON.parse((await partner(`/verifications/${id}`)).text).status;

describe('a GET read again answers the state as it is', () => {
  it('sends the same bytes again while nothing changed', async () => {
    const id = await create();
    const first = await partner(`/verifications/${id}`);
    const second = await partner(`/verifications/${id}`);
    expect(second).toEqual(first);
    expect(JSON.parse(first.text)).toMatchObject({ id, status: 'created' });
  });

  it('shows a change made through the control API', async () => {
    const id = await create();
    expect(await statusOf(id)).toBe('created');
    expect((await control(`/verifications/${id}/open`)).status).toBe(200);
    expect(await statusOf(id)).toBe('started');
  });

  it('shows a change made through the partner API, in lists as well as records', async () => {
    const id = await create();
    const before = JSON.parse((await partner('/verifications?limit=50')).text);
    expect(before.verifications.map((v: { id: string }) => v.id)).toContain(id);
    const later = await create();
    const after = JSON.parse((await partner('/verifications?limit=50')).text);
    expect(after.count).toBe(before.count + 1);
    expect(after.verifications[0].id).toBe(later);
  });

  it('shows an expiry that only time brought (the clock moved in process, no request changed anything)', async () => {
    const id = await create(5);
    expect(await statusOf(id)).toBe('created');
    sandbox.clock.advance(6);
    expect(await statusOf(id)).toBe('expired');
  });

  it('shows a change made through the in-process state', async () => {
    const before = JSON.parse(
      await fetch(`${sandbox.url}/v2/verifications/?pageSize=50`, {
        headers: { authorization: `Bearer ${sandbox.accessToken}` },
      }).then((r) => r.text()),
    );
    sandbox.v2.create({ externalId: 'cache-in-process', country: 'DE', phoneNo: '+4915199999999' });
    const after = JSON.parse(
      await fetch(`${sandbox.url}/v2/verifications/?pageSize=50`, {
        headers: { authorization: `Bearer ${sandbox.accessToken}` },
      }).then((r) => r.text()),
    );
    expect(after.count).toBe(before.count + 1);
    expect(after.items.map((s: { externalId: string }) => s.externalId)).toContain('cache-in-process');
  });

  it('shows the outcome of a webhook delivery in the history', async () => {
    expect(
      (await partner('/partners', { method: 'PUT', body: JSON.stringify({ webhookUrl: receiverUrl }) })).status,
    ).toBe(200);
    const id = await create();
    const history = async () =>
      JSON.parse((await partner(`/verifications/${id}/webhooks`)).text).webhooks as {
        success: boolean;
        retryAt: string | null;
      }[];
    await expect.poll(async () => (await history()).length, { timeout: 5000 }).toBe(1);
    await expect.poll(async () => (await history())[0].retryAt, { timeout: 5000 }).not.toBeNull();
    expect((await history())[0].success).toBe(false);
    receiverStatus = 200;
    await expect.poll(async () => (await history())[0].success, { timeout: 5000 }).toBe(true);
  });

  it('checks the credential on every read: a rotated-away key gets 401, a wrong one too', async () => {
    const id = await create();
    const oldKey = key;
    expect((await partner(`/verifications/${id}`, {}, oldKey)).status).toBe(200);
    expect((await partner(`/verifications/${id}`, {}, 'not-the-key')).status).toBe(401);
    const rotated = await partner('/auth-keys', { method: 'POST', body: '{}' }, oldKey);
    expect(rotated.status, rotated.text).toBe(201);
    key = JSON.parse(rotated.text).authKeys[0].key;
    expect((await partner(`/verifications/${id}`, {}, oldKey)).status).toBe(401);
    expect((await partner(`/verifications/${id}`)).status).toBe(200);
  });

  it('answers HEAD as GET without a body, and an unknown id 404 each time it is read', async () => {
    const id = await create();
    const head = await fetch(`${sandbox.url}/verifications/${id}`, {
      method: 'HEAD',
      headers: { 'x-auth-key': key, 'content-type': 'application/json' },
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const missing = '/verifications/00000000-0000-4000-8000-000000000000';
    expect((await partner(missing)).status).toBe(404);
    expect((await partner(missing)).status).toBe(404);
  });
});
