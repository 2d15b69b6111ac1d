// @verification-service/contracts/webhooks/check: sends a partner's receiver signed and forged webhooks and judges
// each answer's status by what the documents state and leave open (no order of delivery, no single delivery); what the
// receiver did with the events it cannot see, so it hands them to the partner's own test (`onCase`). Node only.
import { type CaseSpec, caseSpecs, type Delivery } from './check-cases.js';
import type { ReceivedWebhookEvent } from './events.js';
import { deliver } from './receiver-answer.js';

/** A receiver reached in process, as a fetch handler (a Worker's `fetch`, a route handler). */
export type WebhookHandler = (request: Request) => Promise<Response>;

export interface WebhookCheckOptions {
  /** The integration auth key the service signs with. */
  authKey: string;
  /** The key before the last `POST /auth-keys`: checks that a delivery signed with it is still accepted. */
  previousKey?: string;
  /** How long each answer may take, in milliseconds (default 10,000: the service documents no delivery timeout). */
  timeoutMs?: number;
  /**
   * Called after each case that ran, and awaited before the next is sent: assert there what your receiver did with
   * `checkCase.events` (a repeat acted on once, a late event not overwriting newer data), which the check cannot see. A
   * throw or rejection stops the check and rejects with it.
   */
  onCase?: (checkCase: WebhookCheckCase) => void | Promise<void>;
}

/** One answer of the receiver to one request of a case. */
export interface WebhookCheckAnswer {
  /** The HTTP status, or null when there was none (no answer in time, a failed connection, a handler that threw). */
  status: number | null;
  /**
   * Why there is no status, or what the receiver said: the start of its body (at most 4 KiB read), on one line, control
   * characters written out (`\x1b`), cut to 200 characters.
   */
  detail: string;
}

export interface WebhookCheckCase {
  /** A stable name: `signed:verification.created`, `tampered-body`, `repeat`, `reverse-order`, `tie`, … */
  id: string;
  /** What the receiver's answers must be, as a sentence. */
  rule: string;
  /** `skipped` only for the rotation case when no previous key is given. */
  outcome: 'passed' | 'failed' | 'skipped';
  answers: WebhookCheckAnswer[];
  /** When failed: what happened and what to fix; when skipped: what to give to check it. */
  problem?: string;
  /**
   * The events sent, in order, as sent (a forged one as changed): a repeat twice, with one `eventId`. Every run has
   * fresh ids (`eventId`, `verificationId`, `userId`, …), so these name records only this run made.
   */
  events: ReceivedWebhookEvent[];
}

export interface WebhookCheckReport {
  /** True when every case that ran passed. */
  passed: boolean;
  cases: WebhookCheckCase[];
  /** How many requests were sent (at most 18). */
  requests: number;
}

/** The service's delivery timeout as this check assumes it: the local sandbox's (the service documents none). */
export const DEFAULT_CHECK_TIMEOUT_MS = 10_000;

/** Why an answer to a request that must be answered 200 is wrong: what happened, then what to fix. */
function acceptedProblem(spec: CaseSpec, delivery: Delivery, answer: WebhookCheckAnswer, timeoutMs: number): string {
  if (answer.status === null && answer.detail.startsWith('no answer within'))
    return `${delivery.subject} got ${answer.detail}: the service counts that attempt failed and sends it again every 15 minutes (its own timeout is not documented; ${timeoutMs / 1000} s is assumed); answer 200 first and do slow work after (a queue)`;
  if (answer.status === null) return `${delivery.subject}: ${answer.detail}; ${spec.fix}`;
  const said = answer.detail ? ` (it said: ${answer.detail})` : '';
  if (answer.status >= 300 && answer.status < 400)
    return `${delivery.subject} was answered ${answer.status}, a redirect${said}: the service follows no redirect and retries every 15 minutes; give it the receiver's final address`;
  if (answer.status === 401 || answer.status === 403)
    return `${delivery.subject} was answered ${answer.status}${said}: the receiver refused a correct X-SIGNATURE; verify the raw bytes as sent (never a re-serialized body) with the key given here; ${spec.fix}`;
  return `${delivery.subject} was answered ${answer.status}${said}: ${spec.fix}`;
}

/**
 * Checks a webhook receiver, as the service would reach it: `target` is its URL (http:// or https://, sent to and
 * nowhere else) or a fetch handler called in process. Sends at most 18 requests, one at a time, each given `timeoutMs`,
 * with fresh ids on every run; resolves with each case, its events and whether the receiver's answers held. It judges
 * answers only: what the receiver did with the events is for `onCase` to assert. Rejects when a URL cannot be reached
 * at all (the first request's connection fails), and with what `onCase` threw.
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
      const answer = await deliver(destination, delivery, timeoutMs, requests === 0);
      requests += 1;
      answers.push(answer);
      if (spec.expect === 'accepted' && answer.status !== 200)
        problems.push(acceptedProblem(spec, delivery, answer, timeoutMs));
      if (spec.expect === 'refused' && answer.status === 200)
        problems.push(`${delivery.subject} was answered 200: ${spec.fix}`);
    }
    const checkCase: WebhookCheckCase = {
      id: spec.id,
      rule: spec.rule,
      outcome: spec.skipped ? 'skipped' : problems.length ? 'failed' : 'passed',
      answers,
      ...(spec.skipped || problems.length ? { problem: spec.skipped ?? problems.join('; and ') } : {}),
      events: spec.deliveries.map((delivery) => JSON.parse(delivery.body)),
    };
    cases.push(checkCase);
    if (!spec.skipped) await options.onCase?.(checkCase);
  }
  return { passed: cases.every((c) => c.outcome !== 'failed'), cases, requests };
}
