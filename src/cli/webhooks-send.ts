// `webhooks send`: the documented example of each chosen webhook, with fresh
// ids, signed as the service signs it, posted to the partner's receiver, with
// what it answered; `--repeat` and `--shuffle` send them as the service may,
// more than once and in any order.
import { randomInt } from 'node:crypto';
import { documentedWebhookExamplesWithFreshIds } from '../webhooks/examples.js';
import type { WebhookEventType } from '../webhooks/events.js';
import { answerText } from '../webhooks/receiver-answer.js';
import { signWebhookPayload } from '../webhooks/signature.js';
import { EXIT, parseOptions, UsageError } from './usage.js';
import { isWebAddress } from '../web-address.js';

export const SEND_USAGE = `Usage: verification-contracts webhooks send --url URL --key KEY [--event NAME|all] [--repeat N] [--shuffle] [--timeout SECONDS]

Posts the documented example of each chosen webhook to your receiver, as the
service would: a JSON body signed with KEY in X-SIGNATURE. Every run uses
fresh ids (each eventId, verificationId and userId is new, the examples still
naming one another's records), so your store takes them as new events, not as
repeats of an earlier run. Prints what the receiver answered per event, with
its eventId, and whether the service would retry it: the service
retries anything but 200 every 15 minutes. Of each answer it reads at most
4 KiB, and prints control characters escaped (\\x1b). The service's documents
give the order events are generated in, but no order of delivery and no
single delivery: --repeat and --shuffle send as it may.

Options:
  --url URL          your receiver, http:// or https://
  --key KEY          the integration auth key the service signs with
  --event NAME       an event type, a comma-separated list, or all (default)
  --repeat N         send each event N times (1 to 10, default 1), the same
                     body and eventId each time: a receiver answers 200 to
                     every copy and acts once
  --shuffle          send the events (and their copies) in a random order
  --timeout SECONDS  how long to wait for each answer (default 10)
  -h, --help         this text

Exit status: 0 when every event was answered 200, 1 when any would be
retried, 2 on bad arguments or when the receiver cannot be reached.`;

export async function sendCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const { values } = parseOptions('webhooks send', argv, {
    url: { type: 'string' },
    key: { type: 'string' },
    event: { type: 'string', default: 'all' },
    repeat: { type: 'string', default: '1' },
    shuffle: { type: 'boolean', default: false },
    timeout: { type: 'string', default: '10' },
  });
  if (values.help) {
    out(SEND_USAGE);
    return EXIT.ok;
  }
  if (!values.url || !isWebAddress(values.url))
    throw new UsageError('--url must be an http:// or https:// URL', 'webhooks send');
  if (!values.key)
    throw new UsageError('--key is required: the auth key the webhooks are signed with', 'webhooks send');
  const timeout = Number(values.timeout);
  if (!(timeout > 0)) throw new UsageError('--timeout must be a positive number of seconds', 'webhooks send');
  const repeat = Number(values.repeat);
  if (!/^\d+$/.test(values.repeat) || repeat < 1 || repeat > 10) {
    throw new UsageError(
      `--repeat must be a whole number from 1 to 10 (how many times each event is sent), not "${values.repeat}"`,
      'webhooks send',
    );
  }

  const examples = documentedWebhookExamplesWithFreshIds();
  const chosen = values.event === 'all' ? [...examples.keys()] : values.event.split(',').map((e) => e.trim());
  const unknown = chosen.filter((e) => !examples.has(e as WebhookEventType));
  if (unknown.length) {
    throw new UsageError(
      `unknown event ${unknown.join(', ')}; the events are: ${[...examples.keys()].join(', ')}, all`,
      'webhooks send',
    );
  }

  // Every copy of an event, one after another, then the whole list shuffled when asked.
  const sends = (chosen as WebhookEventType[]).flatMap((eventType) =>
    Array.from({ length: repeat }, (_, i) => ({ eventType, copy: i + 1 })),
  );
  if (values.shuffle) shuffle(sends);
  const firstAnswer = new Map<WebhookEventType, number>();
  let retried = 0;
  out('Fresh ids this run: every eventId, verificationId and userId sent is new.');
  for (const { eventType, copy } of sends) {
    const event = examples.get(eventType)!;
    const body = JSON.stringify(event);
    let status: number;
    let answer: string;
    try {
      const res = await fetch(values.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-SIGNATURE': signWebhookPayload(body, values.key) },
        body,
        signal: AbortSignal.timeout(timeout * 1000),
      });
      status = res.status;
      // A few KiB at most, on one line, with no control character of the receiver's own.
      answer = await answerText(res);
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (err as Error).message;
      throw new UsageError(`cannot reach ${values.url} (${reason}) while sending ${eventType}`);
    }
    const verdict = status === 200 ? 'delivered' : 'not 200: the service would retry this every 15 minutes';
    if (status !== 200) retried += 1;
    out(
      `${eventType.padEnd(22)} ${status}  ${verdict}  eventId ${event.eventId}${repeat > 1 ? `  (copy ${copy} of ${repeat}, same eventId)` : ''}`,
    );
    // What the receiver said is usually why.
    if (status !== 200 && answer) out(`${' '.repeat(22)}      answered: ${answer}`);
    if (status === 401) {
      out(
        `${' '.repeat(22)}      a 401 usually means the receiver checked X-SIGNATURE with another key than --key, or a body re-serialized before checking (verify the raw bytes)`,
      );
    }
    const first = firstAnswer.get(eventType);
    if (first === 200 && status !== 200) {
      out(
        `${' '.repeat(22)}      an earlier copy was answered 200: the service may deliver an event more than once, so answer 200 to a repeat (drop it by eventId)`,
      );
    }
    if (first === undefined) firstAnswer.set(eventType, status);
  }
  out(retried ? `${retried} of ${sends.length} would be retried.` : `all ${sends.length} delivered.`);
  return retried ? EXIT.failed : EXIT.ok;
}

/** Fisher-Yates, in place, with the platform's uniform random integers. */
function shuffle<T>(items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
}
