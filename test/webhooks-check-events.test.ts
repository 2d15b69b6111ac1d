// What the receiver check hands a partner's own test (each case's events, to `onCase` before the next is sent), and
// what it sends: events of the contract, fresh on every run, each case's relations kept.
import { describe, expect, it } from 'vitest';
import { checkWebhookReceiver, type WebhookCheckCase, type WebhookHandler } from '../src/webhooks/check.js';
import {
  isKnownWebhookEvent,
  parseWebhookEvent,
  signWebhookPayload,
  verifyWebhookRequest,
  type ReceivedWebhookEvent,
  type WebhookEvent,
} from '../src/webhooks/index.js';
import { loadBundle } from './helpers/openapi.js';

const KEY = 'sbx_check_events_3c9a';

/** A receiver that answers 200 to every correctly signed webhook, counting what it was sent. */
function counting(): { handler: WebhookHandler; received: () => number } {
  let received = 0;
  const handler: WebhookHandler = async (request) => {
    received += 1;
    try {
      await verifyWebhookRequest(request, KEY);
      return new Response(null, { status: 200 });
    } catch {
      return new Response(null, { status: 401 });
    }
  };
  return { handler, received: () => received };
}

const known = (events: ReceivedWebhookEvent[]) => events.filter(isKnownWebhookEvent) as WebhookEvent[];
const verificationData = (event: ReceivedWebhookEvent) => {
  if (!isKnownWebhookEvent(event) || event.dataType !== 'verification')
    throw new Error(`${event.eventType} is not a verification event`);
  return event.data;
};

describe('checkWebhookReceiver gives each case its events', () => {
  it('to onCase, after the case and before the next request, and in the report', async () => {
    const { handler, received } = counting();
    const seen: { id: string; receivedBefore: number; events: ReceivedWebhookEvent[] }[] = [];
    const report = await checkWebhookReceiver(handler, {
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
      const report = await checkWebhookReceiver(counting().handler, { authKey: KEY });
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
      expect(verificationData(updated).verificationId).toBe(verificationData(created).verificationId);
      expect(verificationData(updated).status).toBe('completed');
      expect(Date.parse(verificationData(updated).updatedAt ?? '')).toBeGreaterThan(
        Date.parse(verificationData(created).updatedAt ?? ''),
      );

      const tie = sentIn('tie').map(verificationData);
      expect(sentIn('tie').map((e) => e.eventType)).toEqual(['verification.updated', 'verification.updated']);
      expect(new Set(sentIn('tie').map((e) => e.eventId)).size).toBe(2);
      expect(tie[1].verificationId).toBe(tie[0].verificationId);
      expect(tie[1].updatedAt).toBe(tie[0].updatedAt);
      expect(tie[1].status).not.toBe(tie[0].status);
      const events = known(report.cases.flatMap((c) => c.events));
      const user = (type: string) => events.find((e) => e.eventType === type)!.data as { userId: string };
      // The documents' story: the completed verification, its user and that user's later events name one user.
      expect(
        new Set(['user.created', 'user.merged', 'user.updated', 'shareholder.verified'].map((t) => user(t).userId))
          .size,
      ).toBe(1);
      expect(verificationData(events.find((e) => e.eventType === 'verification.updated')!).userId).toBe(
        user('user.created').userId,
      );
      return {
        eventIds: new Set(report.cases.flatMap((c) => c.events.map((e) => e.eventId))),
        records: new Set(
          events
            .flatMap((e) => ('verificationId' in e.data ? [e.data.verificationId] : []))
            .concat(
              events.flatMap((e) => ('userId' in e.data && typeof e.data.userId === 'string' ? [e.data.userId] : [])),
            ),
        ),
      };
    };
    const [one, two] = [await ids(), await ids()];
    expect(one.eventIds.size).toBeGreaterThan(10);
    expect([...one.eventIds].filter((id) => two.eventIds.has(id))).toEqual([]);
    expect([...one.records].filter((id) => two.records.has(id))).toEqual([]);
  });

  it('rejects with what onCase threw, and sends nothing after it', async () => {
    const { handler, received } = counting();
    await expect(
      checkWebhookReceiver(handler, {
        authKey: KEY,
        onCase(checkCase) {
          if (checkCase.id === 'repeat') throw new Error('the repeat was acted on twice');
        },
      }),
    ).rejects.toThrow('the repeat was acted on twice');
    // A signed event per webhook of the document, the 3 forged ones and the repeat's two.
    expect(received()).toBe(Object.keys(loadBundle('partner').webhooks).length + 5);
  });
});
