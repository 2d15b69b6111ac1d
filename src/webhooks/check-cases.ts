// The cases of the receiver check, in the order they are sent: a rule for the answers and the requests that test it,
// from the documented examples with fresh ids on every run and each case's relations kept (a repeat is one event).
import { documentedWebhookExamplesWithFreshIds } from './examples.js';
import type { WebhookEvent, WebhookEventOf, WebhookEventType } from './events.js';
import { signWebhookPayload } from './signature.js';

export interface Delivery {
  /** How the failure message names this request: "a forged signature". */
  subject: string;
  body: string;
  /** The X-SIGNATURE header, or undefined to send none. */
  signature: string | undefined;
}

export interface CaseSpec {
  id: string;
  rule: string;
  /** `accepted`: every request must be answered 200 in time; `refused`: none may be answered 200. */
  expect: 'accepted' | 'refused';
  deliveries: Delivery[];
  /** What to fix when a request is answered wrongly (for accepted cases: an answer other than 200 that is no 401 or redirect). */
  fix: string;
  /** Why the case is not checked (and sends nothing), when it is not. */
  skipped?: string;
}

const RETRY = 'the service retries anything but 200 every 15 minutes';
// An event type no version of the documents has: a receiver must take it as one added later.
const FUTURE_EVENT_TYPE = 'document.expired';

const fresh = () => crypto.randomUUID();

const laterBy = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** `verification.created` and `verification.updated` of one new verification, with fresh ids and times in order. */
function verificationPair(examples: Map<WebhookEventType, WebhookEvent>) {
  const verificationId = fresh();
  // Each event is sent as JSON, so the copies may share the examples' nested values.
  const createdExample = examples.get('verification.created') as WebhookEventOf<'verification.created'>;
  const updatedExample = examples.get('verification.updated') as WebhookEventOf<'verification.updated'>;
  const created: WebhookEventOf<'verification.created'> = {
    ...createdExample,
    eventId: fresh(),
    data: { ...createdExample.data, verificationId },
  };
  // The event's own time stands in where a verification.created lacks updatedAt (P33).
  const updatedAt = laterBy(created.data.updatedAt ?? created.createdAt, 7 * 60_000);
  const updated: WebhookEventOf<'verification.updated'> = {
    ...updatedExample,
    eventId: fresh(),
    createdAt: laterBy(updatedAt, 131),
    data: {
      ...updatedExample.data,
      verificationId,
      createdAt: created.data.createdAt,
      validTo: created.data.validTo,
      updatedAt,
    },
  };
  return { created, updated };
}

/** The cases, in the order they are sent; every id is fresh, so a run never repeats an earlier run's events or records. */
export function caseSpecs(authKey: string, previousKey: string | undefined): CaseSpec[] {
  const examples = documentedWebhookExamplesWithFreshIds();
  const signed = (event: unknown, key = authKey) => {
    const body = JSON.stringify(event);
    return { body, signature: signWebhookPayload(body, key) };
  };
  const { created, updated } = verificationPair(examples);
  const story: Partial<Record<WebhookEventType, WebhookEvent>> = {
    'verification.created': created,
    'verification.updated': updated,
  };
  const documented = [...examples.keys()].map((eventType): CaseSpec => {
    const event = story[eventType] ?? { ...examples.get(eventType)!, eventId: fresh() };
    return {
      id: `signed:${eventType}`,
      rule: `${eventType}, signed with your key, is answered 200`,
      expect: 'accepted',
      deliveries: [{ subject: eventType, ...signed(event) }],
      fix: `${RETRY}; answer 200 to every correctly signed webhook`,
    };
  });

  const forgedBase = verificationPair(examples).updated;
  const tampered = signed(forgedBase);
  // Still a valid webhook after the change: only the signature can tell.
  const changed = { ...forgedBase, data: { ...forgedBase.data, firstName: 'Mallory' } };
  const repeated = signed(verificationPair(examples).created);
  const reversed = verificationPair(examples);
  // Two `verification.updated` of one verification, one `data.updatedAt`, two statuses: neither is newer.
  const completed = verificationPair(examples).updated;
  const tie = [
    completed,
    // No user yet while in review (userId only when completed).
    {
      ...completed,
      eventId: fresh(),
      createdAt: laterBy(completed.createdAt, 40),
      data: { ...completed.data, status: 'inReview', userId: null },
    },
  ] satisfies WebhookEventOf<'verification.updated'>[];
  const future = {
    eventId: fresh(),
    dataType: 'document',
    eventType: FUTURE_EVENT_TYPE,
    createdAt: forgedBase.createdAt,
    data: { documentId: fresh() },
  };
  const checkSignature =
    'verify X-SIGNATURE over the raw bytes with your key before reading the body (verifyWebhookRequest), and answer 401 when it does not match';

  const specs: CaseSpec[] = [
    ...documented,
    {
      id: 'tampered-body',
      rule: 'a body changed after signing is not answered 200',
      expect: 'refused',
      deliveries: [
        { subject: 'a body changed after signing', body: JSON.stringify(changed), signature: tampered.signature },
      ],
      fix: `the receiver does not check X-SIGNATURE against the raw body; ${checkSignature}`,
    },
    {
      id: 'other-key',
      rule: 'a signature from another key is not answered 200',
      expect: 'refused',
      deliveries: [{ subject: 'a forged signature (from another key)', ...signed(forgedBase, `forged-${fresh()}`) }],
      fix: `the receiver does not check X-SIGNATURE; ${checkSignature}`,
    },
    {
      id: 'missing-signature',
      rule: 'a webhook without X-SIGNATURE is not answered 200',
      expect: 'refused',
      deliveries: [{ subject: 'a webhook without X-SIGNATURE', body: tampered.body, signature: undefined }],
      fix: `the receiver accepts unsigned webhooks; ${checkSignature}`,
    },
    {
      id: 'repeat',
      rule: 'the same event delivered twice is answered 200 both times',
      expect: 'accepted',
      deliveries: [
        { subject: 'the first delivery of an event', ...repeated },
        { subject: 'the same event delivered again', ...repeated },
      ],
      fix: `delivery is at least once, and ${RETRY}; answer 200 to a repeat and do nothing (drop it by eventId)`,
    },
    {
      id: 'reverse-order',
      rule: 'verification.updated, then the verification.created of the same verification, are both answered 200',
      expect: 'accepted',
      deliveries: [
        { subject: 'verification.updated sent before its verification.created', ...signed(reversed.updated) },
        { subject: 'verification.created sent after its verification.updated', ...signed(reversed.created) },
      ],
      fix: `the documents give the order events are generated in, not the order they are delivered in; answer 200 and act on data only when it is newer than what you stored (by updatedAt)`,
    },
    {
      id: 'tie',
      rule: 'two verification.updated of one verification with the same updatedAt and different statuses are both answered 200',
      expect: 'accepted',
      deliveries: tie.map((event) => ({
        subject: `verification.updated (${event.data.status}) with the same updatedAt as the other`,
        ...signed(event),
      })),
      fix: `${RETRY}; two changes may carry the same updatedAt, and neither is newer: answer 200 to both and keep one rule for which stays (what you stored, or the verification read again)`,
    },
    {
      id: 'unknown-event-type',
      rule: `an event type added after this version (${FUTURE_EVENT_TYPE}) is answered 200`,
      expect: 'accepted',
      deliveries: [{ subject: `an event type the receiver does not know (${FUTURE_EVENT_TYPE})`, ...signed(future) }],
      fix: `${RETRY}; answer 200 to event types added later and ignore them (a default branch)`,
    },
  ];
  specs.push({
    id: 'previous-key',
    rule: 'an event signed with the previous key is answered 200 during a rotation',
    expect: 'accepted',
    deliveries:
      previousKey === undefined
        ? []
        : [
            {
              subject: 'an event signed with the previous key',
              ...signed(verificationPair(examples).created, previousKey),
            },
          ],
    fix: 'a delivery under way at a rotation may arrive signed with the previous key; accept both keys until the rotation settles (verifyWebhookRequest(request, [key, previousKey]))',
    ...(previousKey === undefined
      ? { skipped: 'not checked: give the previous key (--previous-key) while a key rotation settles' }
      : {}),
  });
  return specs;
}
