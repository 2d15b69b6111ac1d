// The receiver check (`webhooks check`, `@verification-service/contracts/webhooks/check`): a receiver that does what
// the service needs passes every case; receivers that each break one rule fail exactly the case of that rule, named,
// with what to fix. Through the function with a fetch handler, and through the command line (in process) against the
// same receivers served on loopback. And what it hands a partner's own test (each case's events, to `onCase` before the
// next is sent), and what it sends: events of the contract, fresh on every run, each case's relations kept.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline, Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { freePort } from '../scripts/lib/prism.mjs';
import {
  checkWebhookReceiver,
  type WebhookCheckCase,
  type WebhookCheckReport,
  type WebhookHandler,
} from '../src/webhooks/check.js';
import {
  isKnownWebhookEvent,
  parseWebhookEvent,
  signWebhookPayload,
  verifyWebhookRequest,
  WebhookSignatureError,
  type ReceivedWebhookEvent,
} from '../src/webhooks/index.js';
import { HANG_CEILING_MS } from './helpers/ceilings.js';
import { cli } from './helpers/cli.js';
import { loadBundle, type Json } from './helpers/openapi.js';

const KEY = 'sbx_check_9d2e4b7a1c3f';
const PREVIOUS_KEY = 'sbx_check_previous_5a8c';

// The one rule a receiver breaks (`none` is the receiver a partner should write), and the cases it fails: exactly the
// case of its rule, with what to fix; a handler that never answers and ignores the abort is ended by the check's own
// deadline.
const FLAWS = [
  ['none', []],
  ['no-signature-check', ['tampered-body', 'other-key', 'missing-signature']],
  ['error-on-repeat', ['repeat']],
  ['refuses-unknown-type', ['unknown-event-type']],
  ['needs-order', ['reverse-order', 'tie']],
  ['refuses-tie', ['tie']],
  ['slow-on-user.deleted', ['signed:user.deleted']],
  ['redirects-user.merged', ['signed:user.merged']],
] as const;
type Flaw = (typeof FLAWS)[number][0];

/**
 * A receiver built with the package's own verifyWebhookRequest, accepting the current and the previous key, dropping
 * repeats by eventId and answering 200 to event types it does not know; `flaw` breaks one of those rules.
 */
function receiver(flaw: Flaw, redirectTo = 'http://127.0.0.1:9/'): WebhookHandler {
  const handled = new Set<string>();
  const createdVerifications = new Set<string>();
  const storedUpdates = new Map<string, { updatedAt: string; status: string }>();
  return async (request) => {
    let event: ReceivedWebhookEvent;
    if (flaw === 'no-signature-check') event = JSON.parse(await request.text());
    else {
      try {
        event = await verifyWebhookRequest(request, [KEY, PREVIOUS_KEY]);
      } catch (err) {
        return new Response((err as Error).message, { status: err instanceof WebhookSignatureError ? 401 : 400 });
      }
    }
    const verification = isKnownWebhookEvent(event) && event.dataType === 'verification' ? event.data : undefined;
    if (handled.has(event.eventId) && flaw === 'error-on-repeat')
      return new Response('duplicate key value violates unique constraint', { status: 500 });
    if (handled.has(event.eventId)) return new Response(null, { status: 200 });
    if (flaw === 'refuses-unknown-type' && !isKnownWebhookEvent(event))
      return new Response(`unknown event type ${event.eventType}`, { status: 400 });
    const created = verification && createdVerifications.has(verification.verificationId);
    if (flaw === 'needs-order' && event.eventType === 'verification.updated' && !created)
      return new Response('no such verification', { status: 500 });
    if (flaw === 'refuses-tie' && verification) {
      const { verificationId, updatedAt, status } = verification;
      const stored = storedUpdates.get(verificationId);
      if (stored !== undefined && stored.updatedAt === updatedAt && stored.status !== status)
        return new Response('conflicting update', { status: 409 });
      storedUpdates.set(verificationId, { updatedAt: updatedAt ?? '', status });
    }
    // Never answers, and ignores the abort: the check's own deadline must end it.
    if (flaw === 'slow-on-user.deleted' && event.eventType === 'user.deleted') return new Promise<Response>(() => {});
    if (flaw === 'redirects-user.merged' && event.eventType === 'user.merged')
      return new Response(null, { status: 307, headers: { Location: redirectTo } });
    handled.add(event.eventId);
    if (event.eventType === 'verification.created') createdVerifications.add(verification!.verificationId);
    return new Response(null, { status: 200 });
  };
}

const CHUNK = new Uint8Array(64 * 1024).fill(0x41);

const failedIds = (report: WebhookCheckReport) => report.cases.filter((c) => c.outcome === 'failed').map((c) => c.id);
// A signed case per webhook of the document, in its order, then the rules every receiver keeps.
const EVENT_TYPES = Object.keys(loadBundle('partner').webhooks);
const CASE_IDS = [
  ...EVENT_TYPES.map((type) => `signed:${type}`),
  ...['tampered-body', 'other-key', 'missing-signature', 'repeat', 'reverse-order', 'tie', 'unknown-event-type'],
  'previous-key',
];
// One request a case, two for the repeat, the reversed pair and the tie.
const REQUESTS = CASE_IDS.length + 3;

/** Serves a fetch handler on loopback until the test ends, as a partner's receiver would run. */
async function serve(handler: WebhookHandler): Promise<{ url: string; received: () => number }> {
  let count = 0;
  const server = createServer(async (req, res) => {
    count += 1;
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: await buffer(req),
    });
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    // Streamed as it comes: a closed connection cancels the rest of the answer.
    if (response.body) pipeline(Readable.fromWeb(response.body as never), res, () => {});
    else res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, received: () => count };
}

const check = (url: string, ...more: string[]) => cli(['webhooks', 'check', url, '--auth-key', KEY, ...more]);
const WITH_PREVIOUS = ['--previous-key', PREVIOUS_KEY];

/** The check of a receiver through each door: the function given its handler, the command given its address. */
const DOORS: Record<string, (handler: WebhookHandler) => Promise<WebhookCheckReport>> = {
  checkWebhookReceiver: (handler) =>
    checkWebhookReceiver(handler, { authKey: KEY, previousKey: PREVIOUS_KEY, timeoutMs: 2000 }),
  'webhooks check': async (handler) => {
    const { code, out } = await check((await serve(handler)).url, ...WITH_PREVIOUS, '--timeout', '2', '--json');
    const report = JSON.parse(out) as WebhookCheckReport;
    expect(code).toBe(report.passed ? 0 : 1);
    return report;
  },
};

describe('the receiver check', { timeout: HANG_CEILING_MS }, () => {
  it.each(Object.keys(DOORS).flatMap((door) => FLAWS.map(([flaw, failed]) => [flaw, failed, door] as const)))(
    'a receiver with the flaw %s fails exactly %j, through %s, one request a case (two for a pair)',
    async (flaw, failed, door) => {
      const report = await DOORS[door](receiver(flaw));
      expect(report.cases.map((c) => c.id)).toEqual(CASE_IDS);
      expect(failedIds(report)).toEqual(failed);
      expect(report.passed).toBe(failed.length === 0);
      expect(report.requests).toBe(REQUESTS);
      for (const c of report.cases) expect(c.problem !== undefined).toBe(c.outcome === 'failed');
      // The update sent before its creation is the one refused.
      if (flaw === 'needs-order')
        expect(report.cases.find((c) => c.id === 'reverse-order')!.answers.map((a) => a.status)).toEqual([500, 200]);
      // A correct receiver's refusals were refusals of the signature, not of a broken body.
      if (flaw === 'none')
        for (const id of ['tampered-body', 'other-key', 'missing-signature'])
          expect(report.cases.find((c) => c.id === id)!.answers[0].status).toBe(401);
    },
  );

  it('without a previous key, leaves the rotation case out and says what to give', async () => {
    const report = await checkWebhookReceiver(receiver('none'), { authKey: KEY });
    expect(report.passed).toBe(true);
    expect(report.requests).toBe(17);
    expect(report.cases.at(-1)).toMatchObject({
      id: 'previous-key',
      outcome: 'skipped',
      problem: expect.stringContaining('give the previous key'),
    });
  });

  it('refuses an address it would not send to, and a missing key, before sending anything', async () => {
    await expect(checkWebhookReceiver('ftp://127.0.0.1/', { authKey: KEY })).rejects.toThrow(
      /not an http:\/\/ or https:\/\/ address/,
    );
    await expect(checkWebhookReceiver('http://user:secret@127.0.0.1:9/', { authKey: KEY })).rejects.toThrow(
      /user or password/,
    );
    await expect(checkWebhookReceiver(receiver('none'), { authKey: '' })).rejects.toThrow(/authKey must be/);
  });

  it('prints a ✓ per case that holds, a ✗ per case that fails, a - for one not run, and exits 0 only when all hold', async () => {
    const good = await check((await serve(receiver('none'))).url, ...WITH_PREVIOUS);
    expect(good.out.match(/^✓ /gm)).toHaveLength(CASE_IDS.length);
    expect(good.code).toBe(0);
    const { code, out } = await check((await serve(receiver('no-signature-check'))).url);
    const lines = (mark: string) => out.split('\n').filter((line) => line.startsWith(`${mark} `)).length;
    expect([lines('✓'), lines('✗'), lines('-')]).toEqual([CASE_IDS.length - 4, 3, 1]);
    expect(code).toBe(1);
  });

  it('follows no redirect: a 307 fails its case and nothing reaches the address it names', async () => {
    const trap = await serve(receiver('none'));
    const { url } = await serve(receiver('redirects-user.merged', trap.url));
    const { code, out } = await check(url, ...WITH_PREVIOUS);
    expect(out).toMatch(
      /^✗ user\.merged, signed with your key, is answered 200: user\.merged was answered 307, a redirect: the service follows no redirect/m,
    );
    expect(out.match(/^✗ /gm)).toHaveLength(1);
    expect(trap.received()).toBe(0);
    expect(code).toBe(1);
  });

  it.each(Object.keys(DOORS))(
    'reads at most a few KiB of an answer that never ends, cancels the rest, and judges its status, through %s',
    async (door) => {
      let pulled = 0;
      let cancelled = 0;
      const endless = () =>
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled += CHUNK.byteLength;
            controller.enqueue(CHUNK);
          },
          cancel() {
            cancelled += 1;
          },
        });
      const correct = receiver('none');
      const report = await DOORS[door](
        async (request) => new Response(endless(), { status: (await correct(request)).status }),
      );
      expect(failedIds(report)).toEqual([]);
      // Each answer's connection is let go, the last one just after the report.
      await vi.waitFor(() => expect(cancelled).toBe(report.requests));
      // Pulled before the cancel: a chunk read and one queued behind it in process, the sockets' buffers over loopback;
      // not the 16 MiB a receiver may send.
      const perAnswer = door === 'checkWebhookReceiver' ? 2 * CHUNK.byteLength : 16 * 1024 * 1024;
      expect(pulled).toBeLessThanOrEqual(report.requests * perAnswer);
      for (const c of report.cases) for (const answer of c.answers) expect(answer.detail).toMatch(/^A{200}…$/);
    },
  );

  it('exits 2 when the URL cannot be reached, after one request, and on bad arguments', async () => {
    const closed = await freePort();
    const unreachable = await check(`http://127.0.0.1:${closed}/`);
    expect(unreachable.err).toMatch(
      /^error: cannot reach http:\/\/127\.0\.0\.1:\d+\/ \(ECONNREFUSED\): is the receiver running there\?/,
    );
    expect(unreachable.code).toBe(2);
    const noKey = await cli(['webhooks', 'check', 'http://127.0.0.1:9/']);
    expect(noKey.err).toContain('--auth-key is required');
    expect(noKey.code).toBe(2);
    const withUser = await check('http://me:pw@127.0.0.1:9/');
    expect(withUser.err).toContain('has a user or password in it');
    const noUrl = await cli(['webhooks', 'check', '--auth-key', KEY]);
    expect(noUrl.err).toContain(
      'give the receiver as an http:// or https:// URL; see verification-contracts webhooks check --help',
    );
  });
});

/** An event's data, not narrowed: each test asserts the event types it reads. */
const dataOf = (event: ReceivedWebhookEvent): Json => event.data;

describe('checkWebhookReceiver gives each case its events', () => {
  it('to onCase, after the case and before the next request, and in the report', async () => {
    const { url, received } = await serve(receiver('none'));
    const seen: { id: string; receivedBefore: number; events: ReceivedWebhookEvent[] }[] = [];
    const report = await checkWebhookReceiver(url, {
      authKey: KEY,
      async onCase(checkCase: WebhookCheckCase) {
        seen.push({ id: checkCase.id, receivedBefore: received(), events: checkCase.events });
        // Awaited: nothing more is sent while the partner's test reads its store.
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(received()).toBe(seen.at(-1)!.receivedBefore);
      },
    });
    const ran = report.cases.filter((c) => c.outcome !== 'skipped');
    expect(seen.map((s) => s.id)).toEqual(ran.map((c) => c.id));
    // After each case, the receiver had exactly the requests of the cases so far.
    let sent = 0;
    for (const [i, s] of seen.entries()) {
      sent += ran[i].answers.length;
      expect(s.receivedBefore).toBe(sent);
      expect(s.events).toBe(ran[i].events);
      expect(s.events).toHaveLength(ran[i].answers.length);
    }
    expect(report.cases.find((c) => c.outcome === 'skipped')!.events).toEqual([]);
  });

  it('as sent: events of the contract, a repeat with one eventId, the reversed pair and the tie of one verification, fresh ids on every run and the relations of the examples kept', async () => {
    const ids = async () => {
      const report = await checkWebhookReceiver(receiver('none'), { authKey: KEY });
      const sentIn = (id: string) => report.cases.find((c) => c.id === id)!.events;
      // Every event a signed case sent is one of the contract, as the service sends it.
      for (const c of report.cases.filter((c) => c.id.startsWith('signed:') || c.id === 'repeat' || c.id === 'tie'))
        for (const event of c.events) {
          const body = JSON.stringify(event);
          expect(() => parseWebhookEvent(body, signWebhookPayload(body, KEY), KEY)).not.toThrow();
        }
      const [first, again] = sentIn('repeat');
      expect(again).toEqual(first);

      const [updated, created] = sentIn('reverse-order');
      expect([updated.eventType, created.eventType]).toEqual(['verification.updated', 'verification.created']);
      expect(dataOf(updated).verificationId).toBe(dataOf(created).verificationId);
      expect(dataOf(updated).status).toBe('completed');
      expect(Date.parse(dataOf(updated).updatedAt ?? '')).toBeGreaterThan(Date.parse(dataOf(created).updatedAt ?? ''));

      const tie = sentIn('tie').map(dataOf);
      expect(sentIn('tie').map((e) => e.eventType)).toEqual(['verification.updated', 'verification.updated']);
      expect(new Set(sentIn('tie').map((e) => e.eventId)).size).toBe(2);
      expect(tie[1].verificationId).toBe(tie[0].verificationId);
      expect(tie[1].updatedAt).toBe(tie[0].updatedAt);
      expect(tie[1].status).not.toBe(tie[0].status);
      const events = report.cases.flatMap((c) => c.events);
      const user = (type: string) => dataOf(events.find((e) => e.eventType === type)!);
      // The documents' story: the completed verification, its user and that user's later events name one user.
      expect(
        new Set(['user.created', 'user.merged', 'user.updated', 'shareholder.verified'].map((t) => user(t).userId))
          .size,
      ).toBe(1);
      expect(dataOf(events.find((e) => e.eventType === 'verification.updated')!).userId).toBe(
        user('user.created').userId,
      );
      return {
        eventIds: new Set(report.cases.flatMap((c) => c.events.map((e) => e.eventId))),
        records: new Set(events.flatMap((e) => [dataOf(e).verificationId, dataOf(e).userId]).filter(Boolean)),
      };
    };
    const [one, two] = [await ids(), await ids()];
    expect(one.eventIds.size).toBeGreaterThan(10);
    expect([...one.eventIds].filter((id) => two.eventIds.has(id))).toEqual([]);
    expect([...one.records].filter((id) => two.records.has(id))).toEqual([]);
  });

  it('rejects with what onCase threw, and sends nothing after it', async () => {
    const { url, received } = await serve(receiver('none'));
    await expect(
      checkWebhookReceiver(url, {
        authKey: KEY,
        onCase(checkCase) {
          if (checkCase.id === 'repeat') throw new Error('the repeat was acted on twice');
        },
      }),
    ).rejects.toThrow('the repeat was acted on twice');
    // A signed event per webhook of the document, the 3 forged ones and the repeat's two.
    expect(received()).toBe(EVENT_TYPES.length + 5);
  });
});
