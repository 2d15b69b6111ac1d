// The integrators' command line (`webhooks send`, and `webhooks verify`, which decodes a body as parseWebhookEvent
// does), run in process as the bin runs it, against a real loopback receiver; the packed bin runs the guide's `webhooks
// send` in test/integration/guide-commands.test.ts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { freePort } from '../scripts/lib/prism.mjs';
import { documentedWebhookExamples } from '../src/webhooks/examples.js';
import {
  parseWebhookEvent,
  signWebhookPayload,
  verifyWebhookSignature,
  type ReceivedWebhookEvent,
} from '../src/webhooks/index.js';
import { cli } from './helpers/cli.js';
import { loadBundle } from './helpers/openapi.js';

const key = 'sbx_4f9c2a7e1b3d48c6a0e5f7d9b2c4e6a8';
const examples = documentedWebhookExamples();

/** `webhooks verify` of `text`, signed with the key and read from standard input, given `keys` (`--key` options). */
async function verifyStdin(text: string, ...keys: string[]) {
  const stdin = vi.spyOn(process, 'stdin', 'get').mockReturnValue(Readable.from([Buffer.from(text)]) as never);
  try {
    return await cli(['webhooks', 'verify', ...keys, '--signature', signWebhookPayload(text, key), '-']);
  } finally {
    stdin.mockRestore();
  }
}

describe('webhooks send', () => {
  const received: (ReceivedWebhookEvent & { method?: string; contentType?: string; signatureValid: boolean })[] = [];
  const userId = (event: ReceivedWebhookEvent) => (event.data as { userId?: string | null }).userId;
  let origin = '';
  let url = '';
  const server = createServer(async (req, res) => {
    // A receiver slower than --timeout.
    if (req.url === '/slow') return setTimeout(() => res.writeHead(200).end(), 2_000).unref();
    const raw = await buffer(req);
    const signature = req.headers['x-signature'];
    const signatureValid = verifyWebhookSignature(raw, signature, key);
    const event = parseWebhookEvent(raw, signature, key);
    const repeat = event.eventType === 'user.updated' && received.some((r) => r.eventId === event.eventId);
    received.push({ ...event, method: req.method, contentType: req.headers['content-type'], signatureValid });
    // A receiver that fails two events, to show the retry verdict and what it answered (one would take over a
    // terminal), and refuses a repeat of user.updated, as a receiver that does not expect repeats does.
    if (event.eventType === 'user.merged')
      res.writeHead(503).end('{"error":"database\n  unavailable"}\x1b[2J\x1b[H ALL PASSED\x07\r\n\u009b32m ok \u202e');
    else if (event.eventType === 'user.deleted') res.writeHead(401).end('signature mismatch');
    else if (repeat) res.writeHead(409).end('already processed');
    else res.writeHead(200).end();
  });

  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    url = `${origin}/hooks/verification`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });
  beforeEach(() => {
    received.length = 0;
  });
  const send = (...more: string[]) => cli(['webhooks', 'send', '--url', url, '--key', key, ...more]);

  it('posts every documented event, signed, and reports what would be retried', async () => {
    const { code, out } = await send();
    expect(received.map((r) => r.eventType)).toEqual(Object.keys(loadBundle('partner').webhooks));
    for (const r of received)
      expect(r).toMatchObject({ method: 'POST', contentType: 'application/json', signatureValid: true });
    expect(out).toMatch(/user\.created\s+200\s+delivered/);
    expect(out).toMatch(
      /user\.merged\s+503\s+not 200: the service would retry this every 15 minutes .*\n\s+answered: \{"error":"database unavailable"\}\\x1b\[2J\\x1b\[H ALL PASSED\\x07 \\x9b32m ok \\u202e\n/,
    );
    expect(out).toMatch(
      /user\.deleted\s+401\s+not 200: .*\n\s+answered: signature mismatch\n\s+a 401 usually means the receiver checked X-SIGNATURE with another key than --key/,
    );
    expect(out).toContain(`2 of ${examples.size} would be retried.`);
    // What the receiver said is written out, never sent to the terminal as it came.
    expect(out).not.toMatch(/[^\P{Cc}\n]/u);
    expect(code).toBe(1);
  });

  it('sends fresh ids on every run, the examples still naming one user, and prints each eventId', async () => {
    const runs: (typeof received)[] = [];
    for (const _ of [1, 2]) {
      received.length = 0;
      const { out } = await send();
      for (const r of received) expect(out).toContain(`eventId ${r.eventId}`);
      runs.push([...received]);
    }
    const [first, second] = runs.map((run) => run.map((r) => r.eventId));
    expect(first).toHaveLength(examples.size);
    expect(first.filter((id) => second.includes(id))).toEqual([]);
    const [users, usersAgain] = runs.map((run) => new Set(run.map(userId).filter(Boolean)));
    expect([...users].filter((id) => usersAgain.has(id))).toEqual([]);
    const named = (run: typeof received, type: string) => userId(run.find((r) => r.eventType === type)!);
    for (const run of runs)
      expect(
        new Set(['user.created', 'user.merged', 'user.updated', 'shareholder.verified'].map((t) => named(run, t))).size,
      ).toBe(1);
  });

  it('sends only the chosen events and exits 0 when all are answered 200', async () => {
    const { code, out } = await send('--event', 'user.created,shareholder.verified');
    expect(received.map((r) => r.eventType)).toEqual(['user.created', 'shareholder.verified']);
    expect(out).toContain('all 2 delivered.');
    expect(code).toBe(0);
  });

  it('--repeat N sends each event N times with the same eventId, and names a repeat answered other than 200', async () => {
    const { code, out } = await send('--event', 'user.created,user.updated', '--repeat', '3');
    expect(received.map((r) => r.eventType)).toEqual(['user.created', 'user.updated'].flatMap((t) => [t, t, t]));
    for (const type of ['user.created', 'user.updated']) {
      const ids = received.filter((r) => r.eventType === type).map((r) => r.eventId);
      expect(new Set(ids).size, `${type} copies carry one eventId`).toBe(1);
    }
    for (const r of received) expect(r.signatureValid).toBe(true);
    expect(out).toMatch(/user\.created\s+200\s+delivered {2}eventId \S+ {2}\(copy 3 of 3, same eventId\)/);
    expect(out).toMatch(
      /user\.updated\s+409\s+not 200: .*\(copy 2 of 3, same eventId\)\n\s+answered: already processed\n\s+an earlier copy was answered 200: the service may deliver an event more than once, so answer 200 to a repeat \(drop it by eventId\)\n/,
    );
    expect(out).toContain('2 of 6 would be retried.');
    expect(code).toBe(1);
  });

  it('--shuffle sends every event and every copy, in an order that is a permutation of the list', async () => {
    const events = ['verification.created', 'verification.updated', 'user.created', 'shareholder.verified'];
    const { code, out } = await send('--event', events.join(','), '--repeat', '2', '--shuffle');
    // A random order may by chance be the listed one: the set and the count are what --shuffle must keep.
    const expected = events.flatMap((e) => [e, e]);
    expect(received.map((r) => r.eventType).sort()).toEqual([...expected].sort());
    for (const type of events)
      expect(new Set(received.filter((r) => r.eventType === type).map((r) => r.eventId)).size).toBe(1);
    // What was printed is what was sent, in the order sent.
    const printed = [...out.matchAll(/^(\S+)[ \t]+\d{3}\s/gm)].map((line) => line[1]);
    expect(printed).toEqual(received.map((r) => r.eventType));
    expect(out).toContain('all 8 delivered.');
    expect(code).toBe(0);
  });

  it.each(['0', '11', 'two', '1.5'])('refuses --repeat %s with the range it takes', async (n) => {
    const { code, err } = await send('--repeat', n);
    expect(code).toBe(2);
    expect(err).toContain(
      `--repeat must be a whole number from 1 to 10 (how many times each event is sent), not "${n}"; see verification-contracts webhooks send --help`,
    );
  });

  it('counts an answer later than --timeout as one the service retries', async () => {
    const slowly = ['--event', 'user.created', '--timeout', '0.3'];
    const slow = await cli(['webhooks', 'send', '--url', `${origin}/slow`, '--key', key, ...slowly]);
    expect(slow.out).toMatch(/no answer within 0\.3 s\n1 of 1 would be retried\./);
    expect(slow.code).toBe(1);
  });

  it('fails clearly on an unreachable URL, an unknown event and missing options', async () => {
    const closed = await freePort();
    const unreachable = await cli(['webhooks', 'send', '--url', `http://127.0.0.1:${closed}/`, '--key', key]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.err).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+\/ \(ECONNREFUSED\)/);
    const unknown = await send('--event', 'user.exploded');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown event user.exploded');
    expect((await cli(['webhooks', 'send', '--key', key])).err).toContain('--url must be an http:// or https:// URL');
  });
});

describe('webhooks verify', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vc-verify-'));
  const body = '{"eventId":"4c7e2a19-8b3d-4f60-a5e1-9d2b7c0f3e84","dataType":"user","eventType":"user.deleted"}';
  const file = path.join(dir, 'body.json');
  writeFileSync(file, body);
  const signature = signWebhookPayload(body, key);
  const verify = (...args: string[]) => cli(['webhooks', 'verify', ...args]);

  it('says a matching signature is valid, then checks the payload against the contract', async () => {
    const result = await verify('--key', key, '--signature', signature, file);
    expect(result.out).toContain('signature: valid.');
    expect(result.out).toMatch(/payload: invalid, .*does not match the partner contract: .*'createdAt'/);
    expect(result.code).toBe(1);
  });

  it('accepts a documented example from standard input, and a rotated key list', async () => {
    const example = JSON.stringify(examples.get('shareholder.verified'));
    const result = await verifyStdin(example, '--key', 'sbx_new_key', '--key', key);
    expect(result.out).toContain('payload: a valid shareholder.verified webhook.');
    expect(result.code).toBe(0);
  });

  it('calls a webhook of an event type it does not know valid, to be answered 200 and ignored (P37)', async () => {
    const added = JSON.stringify({
      ...examples.get('user.created'),
      eventType: 'company.created',
      dataType: 'company',
    });
    const result = await verifyStdin(added, '--key', key);
    expect(result.out).toContain(
      'payload: a valid webhook of event type company.created, which this version does not know; a receiver answers 200 and ignores it.',
    );
    expect(result.code).toBe(0);
    const noId = JSON.stringify({ ...JSON.parse(added), eventId: undefined });
    const refused = await verifyStdin(noId, '--key', key);
    expect(refused.out).toContain('/eventId must be a non-empty string');
    expect(refused.code).toBe(1);
  });

  it('says why a signature does not match', async () => {
    const wrongKey = await verify('--key', 'sbx_other', '--signature', signature, file);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.out).toContain('invalid: X-SIGNATURE does not match the body');
    const upper = await verify('--key', key, '--signature', signature.toUpperCase(), file);
    expect(upper.out).toContain('not 64 lowercase hexadecimal characters');
    const newline = path.join(dir, 'with-newline.json');
    writeFileSync(newline, `${body}\n`);
    const hint = await verify('--key', key, '--signature', signature, newline);
    expect(hint.code).toBe(1);
    expect(hint.out).toContain('matches the body without its final newline');
  });

  const userText = JSON.stringify(examples.get('user.created'));
  const utf8 = (text: string) => new TextEncoder().encode(text);
  it.each([
    // A lone continuation byte inside a string value: a lax decoder would read it as U+FFFD.
    ['refuses bytes that are not UTF-8', [...utf8(userText.slice(0, 20)), 0x80, ...utf8(userText.slice(20))], 1],
    ['reads a body with a leading byte order mark', [...utf8(`\uFEFF${userText}`)], 0],
  ])('%s, as parseWebhookEvent does', async (_, content, code) => {
    const bytes = Uint8Array.from(content);
    const bytesFile = path.join(dir, 'bytes');
    writeFileSync(bytesFile, bytes);
    const sig = signWebhookPayload(bytes, key);
    const result = await verify('--key', key, '--signature', sig, bytesFile);
    expect(result.code).toBe(code);
    if (code === 0) {
      expect(result.out).toContain('payload: a valid user.created webhook.');
      expect(parseWebhookEvent(bytes, sig, key)).toEqual(JSON.parse(userText));
    } else {
      expect(result.out).toContain('not UTF-8 JSON');
      expect(() => parseWebhookEvent(bytes, sig, key)).toThrow(/not UTF-8 JSON/);
    }
  });

  it('fails with exit 2 on a missing file or missing options', async () => {
    const missing = await verify('--key', key, '--signature', signature, path.join(dir, 'nope.json'));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('cannot read');
    expect((await verify('--signature', signature, file)).err).toContain('--key is required');
  });
});
