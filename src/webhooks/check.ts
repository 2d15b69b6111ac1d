// @verification-service/contracts/webhooks/check: what a receiver of this
// service must do, checked against the partner's own receiver. It sends a
// fixed list of signed (and forged) webhooks, one at a time, to one address
// or fetch handler, and judges each answer by what the service's documents
// state and leave open: anything but 200 is retried every 15 minutes, the
// signature is X-SIGNATURE, and neither order nor single delivery is promised.
// Node only: the events are the documented examples, read from the bundle.
import { documentedWebhookExamples } from './examples.js';
import type { WebhookEvent, WebhookEventOf, WebhookEventType } from './events.js';
import { signWebhookPayload } from './signature.js';

/** A receiver reached in process, as a fetch handler (a Worker's `fetch`, a route handler). */
export type WebhookHandler = (request: Request) => Promise<Response>;

export interface WebhookCheckOptions {
  /** The integration auth key the service signs with. */
  authKey: string;
  /** The key before the last `POST /auth-keys`: checks that a delivery signed with it is still accepted. */
  previousKey?: string;
  /**
   * How long each answer may take, in milliseconds (default 10,000). The
   * service's own delivery timeout is not documented; the sandbox's 10 s is
   * assumed.
   */
  timeoutMs?: number;
}

/** One answer of the receiver to one request of a case. */
export interface WebhookCheckAnswer {
  /** The HTTP status, or null when there was none (no answer in time, a failed connection, a handler that threw). */
  status: number | null;
  /** Why there is no status, or what the receiver said (its body, cut to 200 characters). */
  detail: string;
}

export interface WebhookCheckCase {
  /** A stable name: `signed:verification.created`, `tampered-body`, `repeat`, … */
  id: string;
  /** What must hold, as a sentence. */
  rule: string;
  /** `skipped` only for the rotation case when no previous key is given. */
  outcome: 'passed' | 'failed' | 'skipped';
  answers: WebhookCheckAnswer[];
  /** When failed: what happened and what to fix; when skipped: what to give to check it. */
  problem?: string;
}

export interface WebhookCheckReport {
  /** True when every case that ran passed. */
  passed: boolean;
  cases: WebhookCheckCase[];
  /** How many requests were sent (at most 16). */
  requests: number;
}

/** The service's delivery timeout as this check assumes it: the sandbox's (not documented by the service). */
export const DEFAULT_CHECK_TIMEOUT_MS = 10_000;

interface Delivery {
  /** How the failure message names this request: "a forged signature". */
  subject: string;
  body: string;
  /** The X-SIGNATURE header, or undefined to send none. */
  signature: string | undefined;
}

interface CaseSpec {
  id: string;
  rule: string;
  /** `accepted`: every request must be answered 200 in time; `refused`: none may be answered 200. */
  expect: 'accepted' | 'refused';
  deliveries: Delivery[];
  /** What to fix when a request is answered wrongly (for accepted cases: an answer other than 200 that is no 401 or redirect). */
  fix: string;
}

const RETRY = 'the service retries anything but 200 every 15 minutes';
// An event type no version of the documents has: a receiver must take it as one added later.
const FUTURE_EVENT_TYPE = 'document.expired';

const ROTATION_RULE = 'an event signed with the previous key is answered 200 during a rotation';

const fresh = () => crypto.randomUUID();

function laterBy(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString();
}

/**
 * `verification.created` and `verification.updated` of one new verification,
 * from the documented examples, with fresh ids and times in the order they
 * happen (the update seven minutes after the creation), so that a receiver
 * that keeps the newest `updatedAt` sees a consistent story.
 */
function verificationPair(examples: Map<WebhookEventType, WebhookEvent>) {
  const verificationId = fresh();
  const createdExample = structuredClone(
    examples.get('verification.created'),
  ) as WebhookEventOf<'verification.created'>;
  const updatedExample = structuredClone(
    examples.get('verification.updated'),
  ) as WebhookEventOf<'verification.updated'>;
  const created: WebhookEventOf<'verification.created'> = {
    ...createdExample,
    eventId: fresh(),
    data: { ...createdExample.data, verificationId },
  };
  // The documented example carries updatedAt; the event's own time stands in where a verification.created may lack it (P33).
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

/** The cases, in the order they are sent; every event has a fresh `eventId`, so a run never repeats an earlier run's events. */
function caseSpecs(authKey: string, previousKey: string | undefined): CaseSpec[] {
  const examples = documentedWebhookExamples();
  const signed = (event: unknown, key = authKey) => {
    const body = JSON.stringify(event);
    return { body, signature: signWebhookPayload(body, key) };
  };
  const story = verificationPair(examples);
  const documented = [...examples.keys()].map((eventType): CaseSpec => {
    const event =
      eventType === 'verification.created'
        ? story.created
        : eventType === 'verification.updated'
          ? story.updated
          : { ...examples.get(eventType)!, eventId: fresh() };
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
      fix: `the service promises no delivery order; answer 200 and act on data only when it is newer than what you stored (by updatedAt)`,
    },
    {
      id: 'unknown-event-type',
      rule: `an event type added after this version (${FUTURE_EVENT_TYPE}) is answered 200`,
      expect: 'accepted',
      deliveries: [{ subject: `an event type the receiver does not know (${FUTURE_EVENT_TYPE})`, ...signed(future) }],
      fix: `${RETRY}; answer 200 to event types added later and ignore them (a default branch)`,
    },
  ];
  if (previousKey !== undefined) {
    specs.push({
      id: 'previous-key',
      rule: ROTATION_RULE,
      expect: 'accepted',
      deliveries: [
        {
          subject: 'an event signed with the previous key',
          ...signed(verificationPair(examples).created, previousKey),
        },
      ],
      fix: 'a delivery under way at a rotation may arrive signed with the previous key; accept both keys until the rotation settles (verifyWebhookRequest(request, [key, previousKey]))',
    });
  }
  return specs;
}

/** The answer of the receiver, or why there is none, within `timeoutMs` whatever the handler or fetch does with the abort. */
async function send(
  target: string | WebhookHandler,
  delivery: Delivery,
  timeoutMs: number,
  first: boolean,
): Promise<WebhookCheckAnswer> {
  const controller = new AbortController();
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (delivery.signature !== undefined) headers['X-SIGNATURE'] = delivery.signature;
  // Never a redirect followed: a 3xx is the answer, and nothing goes to another address.
  const init: RequestInit = {
    method: 'POST',
    headers,
    body: delivery.body,
    redirect: 'manual',
    signal: controller.signal,
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve('timeout');
    }, timeoutMs);
  });
  const answer = (async (): Promise<WebhookCheckAnswer> => {
    let response: Response;
    try {
      response =
        typeof target === 'string'
          ? await fetch(target, init)
          : await target(new Request('http://localhost/webhooks', init));
    } catch (err) {
      if (controller.signal.aborted) return { status: null, detail: 'no answer in time' };
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (err as Error).message;
      if (typeof target === 'string' && first)
        throw new Error(`cannot reach ${target} (${reason}): is the receiver running there?`);
      return {
        status: null,
        detail:
          typeof target === 'string'
            ? `the connection failed (${reason})`
            : `the handler threw: ${(err as Error)?.message ?? String(err)}`,
      };
    }
    const said = (await response.text().catch(() => '')).replace(/\s+/g, ' ').trim();
    return { status: response.status, detail: said.length > 200 ? `${said.slice(0, 200)}…` : said };
  })();
  try {
    const settled = await Promise.race([answer, deadline]);
    return settled === 'timeout' ? { status: null, detail: `no answer within ${timeoutMs / 1000} s` } : settled;
  } finally {
    clearTimeout(timer);
    // An answer that comes after the deadline is dropped, and so is its error.
    answer.catch(() => {});
  }
}

/** Why an answer to a request that must be answered 200 is wrong: what happened, then what to fix. */
function acceptedProblem(spec: CaseSpec, delivery: Delivery, answer: WebhookCheckAnswer, timeoutMs: number): string {
  if (answer.status === null && answer.detail.startsWith('no answer within')) {
    return `${delivery.subject} got ${answer.detail}: the service counts that attempt failed and sends it again every 15 minutes (its own timeout is not documented; ${timeoutMs / 1000} s is assumed); answer 200 first and do slow work after (a queue)`;
  }
  if (answer.status === null) return `${delivery.subject}: ${answer.detail}; ${spec.fix}`;
  const said = answer.detail ? ` (it said: ${answer.detail})` : '';
  if (answer.status >= 300 && answer.status < 400) {
    return `${delivery.subject} was answered ${answer.status}, a redirect${said}: the service follows no redirect and retries every 15 minutes; give it the receiver's final address`;
  }
  if (answer.status === 401 || answer.status === 403) {
    return `${delivery.subject} was answered ${answer.status}${said}: the receiver refused a correct X-SIGNATURE; verify the raw bytes as sent (never a re-serialized body) with the key given here; ${spec.fix}`;
  }
  return `${delivery.subject} was answered ${answer.status}${said}: ${spec.fix}`;
}

/**
 * Checks a webhook receiver, as the service would reach it: `target` is its
 * URL (http:// or https://, sent to and nowhere else) or a fetch handler
 * called in process. Sends at most 16 requests, one at a time, each given
 * `timeoutMs`; resolves with each case and whether it held. Rejects when a
 * URL cannot be reached at all (the first request's connection fails).
 */
export async function checkWebhookReceiver(
  target: string | URL | WebhookHandler,
  options: WebhookCheckOptions,
): Promise<WebhookCheckReport> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  if (!(timeoutMs > 0))
    throw new TypeError('checkWebhookReceiver: timeoutMs must be a positive number of milliseconds');
  if (typeof options.authKey !== 'string' || options.authKey === '')
    throw new TypeError('checkWebhookReceiver: authKey must be the integration auth key the service signs with');
  let destination: string | WebhookHandler;
  if (typeof target === 'function') destination = target;
  else {
    const url = new URL(String(target));
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`checkWebhookReceiver: ${url.href} is not an http:// or https:// address`);
    if (url.username || url.password)
      throw new TypeError(
        'checkWebhookReceiver: the address has a user or password in it; the service sends none, so give the address without them',
      );
    destination = url.href;
  }

  const cases: WebhookCheckCase[] = [];
  let requests = 0;
  for (const spec of caseSpecs(options.authKey, options.previousKey)) {
    const answers: WebhookCheckAnswer[] = [];
    const problems: string[] = [];
    for (const delivery of spec.deliveries) {
      const answer = await send(destination, delivery, timeoutMs, requests === 0);
      requests += 1;
      answers.push(answer);
      if (spec.expect === 'accepted' && answer.status !== 200)
        problems.push(acceptedProblem(spec, delivery, answer, timeoutMs));
      if (spec.expect === 'refused' && answer.status === 200)
        problems.push(`${delivery.subject} was answered 200: ${spec.fix}`);
    }
    cases.push({
      id: spec.id,
      rule: spec.rule,
      outcome: problems.length ? 'failed' : 'passed',
      answers,
      ...(problems.length ? { problem: problems.join('; and ') } : {}),
    });
  }
  if (options.previousKey === undefined) {
    cases.push({
      id: 'previous-key',
      rule: ROTATION_RULE,
      outcome: 'skipped',
      answers: [],
      problem: 'not checked: give the previous key (--previous-key) while a key rotation settles',
    });
  }
  return { passed: cases.every((c) => c.outcome !== 'failed'), cases, requests };
}
