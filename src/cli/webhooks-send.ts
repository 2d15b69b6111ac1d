import { documentedWebhookExamples } from '../webhooks/examples.js';
import type { WebhookEventType } from '../webhooks/events.js';
import { signWebhookPayload } from '../webhooks/signature.js';
import { EXIT, parseOptions, UsageError } from './usage.js';

export const SEND_USAGE = `Usage: verification-contracts webhooks send --url URL --key KEY [--event NAME|all] [--timeout SECONDS]

Posts the documented example of each chosen webhook to your receiver, as the
service would: a JSON body signed with KEY in X-SIGNATURE. Prints what the
receiver answered per event, and whether the service would retry it (it
retries anything but 200 every 15 minutes).

Options:
  --url URL          your receiver, http:// or https://
  --key KEY          the integration auth key the service signs with
  --event NAME       an event type, a comma-separated list, or all (default)
  --timeout SECONDS  how long to wait for each answer (default 10)
  -h, --help         this text

Exit status: 0 when every event was answered 200, 1 when any would be
retried, 2 on bad arguments or when the receiver cannot be reached.`;

export async function sendCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const { values } = parseOptions('webhooks send', argv, {
    url: { type: 'string' },
    key: { type: 'string' },
    event: { type: 'string', default: 'all' },
    timeout: { type: 'string', default: '10' },
  });
  if (values.help) {
    out(SEND_USAGE);
    return EXIT.ok;
  }
  if (!values.url || !/^https?:\/\/[^/]/.test(values.url)) throw new UsageError('--url must be an http:// or https:// URL', 'webhooks send');
  if (!values.key) throw new UsageError('--key is required: the auth key the webhooks are signed with', 'webhooks send');
  const timeout = Number(values.timeout);
  if (!(timeout > 0)) throw new UsageError('--timeout must be a positive number of seconds', 'webhooks send');

  const examples = documentedWebhookExamples();
  const chosen = values.event === 'all' ? [...examples.keys()] : values.event.split(',').map((e) => e.trim());
  const unknown = chosen.filter((e) => !examples.has(e as WebhookEventType));
  if (unknown.length) {
    throw new UsageError(`unknown event ${unknown.join(', ')}; the events are: ${[...examples.keys()].join(', ')}, all`, 'webhooks send');
  }

  let retried = 0;
  for (const eventType of chosen as WebhookEventType[]) {
    const body = JSON.stringify(examples.get(eventType));
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
      answer = await res.text();
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (err as Error).message;
      throw new UsageError(`cannot reach ${values.url} (${reason}) while sending ${eventType}`);
    }
    const verdict = status === 200 ? 'delivered' : 'not 200: the service would retry this every 15 minutes';
    if (status !== 200) retried += 1;
    out(`${eventType.padEnd(22)} ${status}  ${verdict}`);
    // What the receiver said is usually why: shown on one line, cut short.
    const said = answer.replace(/\s+/g, ' ').trim();
    if (status !== 200 && said) out(`${' '.repeat(22)}      answered: ${said.length > 200 ? `${said.slice(0, 200)}…` : said}`);
    if (status === 401) {
      out(`${' '.repeat(22)}      a 401 usually means the receiver checked X-SIGNATURE with another key than --key, or a body re-serialized before checking (verify the raw bytes)`);
    }
  }
  out(retried ? `${retried} of ${chosen.length} would be retried.` : `all ${chosen.length} delivered.`);
  return retried ? EXIT.failed : EXIT.ok;
}
