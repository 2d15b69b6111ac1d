// The webhook receivers the partner docs show (the Webhooks tag of the
// partner document) type-check and work: each accepts a documented webhook
// signed as the service signs it (answering 200 and printing its eventId),
// and refuses the same body re-serialized (the raw-body pitfall) or a wrong
// signature.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deref, loadBundle } from './helpers/openapi.js';
import { scratchDir, typeCheck, writeModule } from './helpers/typescript-snippets.js';

const doc = loadBundle('partner');
const description: string = doc.tags.find((t: { name: string }) => t.name === 'Webhooks')?.description ?? '';
const receivers = Object.fromEntries(
  [...description.matchAll(/```ts\n(\/\/ receiver: (\S+)\n[\s\S]*?)```/g)].map((m) => [m[2], m[1]]),
);

const AUTH_KEY = 'sbx_receiver_test_key';
const example = deref(doc, Object.values<object>(doc.webhooks['verification.updated'].post.requestBody.content['application/json'].examples)[0]).value;
// Spaced as a sender might; the signature covers exactly these bytes.
const raw = JSON.stringify(example, null, 1);
const sign = (body: string, key = AUTH_KEY) => createHmac('sha256', key).update(body).digest('hex');

let dir: string;
beforeAll(async () => {
  dir = await scratchDir('webhook-receivers');
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

describe('the webhook section of the partner docs', () => {
  it('states the signature rule and the raw-body pitfall, and shows a node:http and a fetch-style receiver', () => {
    expect(description).toMatch(/HMAC-SHA256 of the raw request body/);
    expect(description).toMatch(/raw-body pitfall/i);
    expect(Object.keys(receivers).sort()).toEqual(['fetch', 'node:http']);
  });

  it('receivers type-check against the package (strict, NodeNext)', async () => {
    expect(await typeCheck(path.join(dir, 'typecheck'), { node: receivers['node:http'], fetch: receivers.fetch })).toBe('');
  });

  describe('the node:http receiver', () => {
    let child: ChildProcess;
    let url: string;
    let output = '';

    beforeAll(async () => {
      const file = await writeModule(dir, 'node-receiver', receivers['node:http']);
      const port = await freePort();
      url = `http://127.0.0.1:${port}/webhooks`;
      child = spawn(process.execPath, [file], { env: { ...process.env, AUTH_KEY, PORT: String(port) } });
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      for (let i = 0; i < 100; i++) {
        const up = await fetch(url, { method: 'POST', body: '{}' }).then(() => true, () => false);
        if (up) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the node:http receiver did not start: ${output}`);
    });

    afterAll(() => {
      child?.kill();
    });

    const post = (body: string, signature: string) =>
      fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-SIGNATURE': signature }, body }).then((r) => r.status);

    it('verifies, parses and answers 200 to a signed webhook', async () => {
      expect(await post(raw, sign(raw))).toBe(200);
      expect(output).toContain(`received ${example.eventId} ${example.eventType}`);
    });

    it('refuses the same event re-serialized, and a signature made with another key', async () => {
      expect(await post(JSON.stringify(example), sign(raw))).toBe(401);
      expect(await post(raw, sign(raw, 'another-key'))).toBe(401);
    });
  });

  describe('the fetch-style handler', () => {
    let handleWebhook: (request: Request, authKey: string) => Promise<Response>;
    beforeAll(async () => {
      const file = await writeModule(dir, 'fetch-receiver', receivers.fetch);
      ({ handleWebhook } = await import(pathToFileURL(file).href));
    });
    const request = (body: string, signature: string) =>
      new Request('https://partner.example/webhooks', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-SIGNATURE': signature }, body });

    it('verifies, parses and answers 200 to a signed webhook', async () => {
      expect((await handleWebhook(request(raw, sign(raw)), AUTH_KEY)).status).toBe(200);
    });

    it('refuses the same event re-serialized, a wrong key and a malformed signature', async () => {
      expect((await handleWebhook(request(JSON.stringify(example), sign(raw)), AUTH_KEY)).status).toBe(401);
      expect((await handleWebhook(request(raw, sign(raw, 'another-key')), AUTH_KEY)).status).toBe(401);
      expect((await handleWebhook(request(raw, 'not-hex'), AUTH_KEY)).status).toBe(401);
    });
  });
});
