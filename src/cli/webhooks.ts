// `webhooks send`, `verify` and `check`: the webhook helpers on the command line (send the documented examples, tell
// why a captured body and its X-SIGNATURE do not match, run the receiver check).
import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import { checkWebhookReceiver, DEFAULT_CHECK_TIMEOUT_MS } from '../webhooks/check.js';
import type { ReceivedWebhookEvent, WebhookEventType } from '../webhooks/events.js';
import { documentedWebhookExamplesWithFreshIds } from '../webhooks/examples.js';
import { WebhookPayloadError, WebhookSignatureError } from '../webhooks/errors.js';
import { isKnownWebhookEvent, parseWebhookEvent } from '../webhooks/parse.js';
import { deliver } from '../webhooks/receiver-answer.js';
import { signWebhookPayload, verifyWebhookSignature } from '../webhooks/signature.js';
import { hasCredentials, isWebAddress } from '../web-address.js';
import { EXIT, HelpRequested, PROGRAM, parseOptions, UsageError } from './usage.js';

const SEND_USAGE = `Usage: verification-contracts webhooks send --url URL --key KEY [--event NAME|all] [--repeat N] [--shuffle] [--timeout SECONDS]

Posts the documented example of each chosen webhook to your receiver, signed
with KEY in X-SIGNATURE as the service signs it, with fresh ids on every run,
and prints each answer (at most 4 KiB read, control characters escaped) and
whether the service would retry it (anything but 200, every 15 minutes). The
documents promise no order of delivery and no single delivery: --repeat and
--shuffle send as the service may.

Options:
  --url URL          your receiver, http:// or https://
  --key KEY          the integration auth key the service signs with
  --event NAME       an event type, a comma-separated list, or all (default)
  --repeat N         send each event N times (1 to 10, default 1), the same
                     body and eventId each time
  --shuffle          send the events (and their copies) in a random order
  --timeout SECONDS  how long to wait for each answer (default 10)
  -h, --help         this text

Exit status: 0 when every event was answered 200, 1 when any would be
retried, 2 on bad arguments or when the receiver cannot be reached.`;

async function sendCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const { values } = parseOptions('webhooks send', SEND_USAGE, argv, {
    url: { type: 'string' },
    key: { type: 'string' },
    event: { type: 'string', default: 'all' },
    repeat: { type: 'string', default: '1' },
    shuffle: { type: 'boolean', default: false },
    timeout: { type: 'string', default: '10' },
  });
  const mistake = (message: string) => new UsageError(message, 'webhooks send');
  if (!values.url || !isWebAddress(values.url)) throw mistake('--url must be an http:// or https:// URL');
  if (!values.key) throw mistake('--key is required: the auth key the webhooks are signed with');
  const timeoutMs = millisecondsOf(values.timeout, mistake);
  const repeat = Number(values.repeat);
  if (!/^\d+$/.test(values.repeat) || repeat < 1 || repeat > 10)
    throw mistake(
      `--repeat must be a whole number from 1 to 10 (how many times each event is sent), not "${values.repeat}"`,
    );

  const examples = documentedWebhookExamplesWithFreshIds();
  const chosen = values.event === 'all' ? [...examples.keys()] : values.event.split(',').map((e) => e.trim());
  const unknown = chosen.filter((e) => !examples.has(e as WebhookEventType));
  if (unknown.length)
    throw mistake(`unknown event ${unknown.join(', ')}; the events are: ${[...examples.keys()].join(', ')}, all`);

  // Every copy of an event, one after another, then the whole list shuffled when asked.
  const sends = (chosen as WebhookEventType[]).flatMap((eventType) =>
    Array.from({ length: repeat }, (_, i) => ({ eventType, copy: i + 1 })),
  );
  if (values.shuffle) shuffle(sends);
  const firstAnswer = new Map<WebhookEventType, number | null>();
  let retried = 0;
  out('Fresh ids this run: every eventId, verificationId and userId sent is new.');
  for (const { eventType, copy } of sends) {
    const event = examples.get(eventType)!;
    const body = JSON.stringify(event);
    const signed = { body, signature: signWebhookPayload(body, values.key) };
    const { status, detail } = await deliver(values.url, signed, timeoutMs, true).catch((err) => {
      throw new UsageError((err as Error).message);
    });
    const verdict = status === 200 ? 'delivered' : 'not 200: the service would retry this every 15 minutes';
    if (status !== 200) retried += 1;
    out(
      `${eventType.padEnd(22)} ${status ?? '---'}  ${verdict}  eventId ${event.eventId}${repeat > 1 ? `  (copy ${copy} of ${repeat}, same eventId)` : ''}`,
    );
    const first = firstAnswer.get(eventType);
    if (first === undefined) firstAnswer.set(eventType, status);
    // Under the line: what the receiver said (usually why), or why there is no answer; then what it usually means.
    const notes = [
      status !== 200 && detail && (status === null ? detail : `answered: ${detail}`),
      status === 401 &&
        'a 401 usually means the receiver checked X-SIGNATURE with another key than --key, or a body re-serialized before checking (verify the raw bytes)',
      first === 200 &&
        status !== 200 &&
        'an earlier copy was answered 200: the service may deliver an event more than once, so answer 200 to a repeat (drop it by eventId)',
    ];
    for (const note of notes) if (note) out(`${' '.repeat(28)}${note}`);
  }
  out(retried ? `${retried} of ${sends.length} would be retried.` : `all ${sends.length} delivered.`);
  return retried ? EXIT.failed : EXIT.ok;
}

/** --timeout SECONDS in milliseconds. */
function millisecondsOf(seconds: string, mistake: (message: string) => UsageError): number {
  if (!(Number(seconds) > 0)) throw mistake('--timeout must be a positive number of seconds');
  return Number(seconds) * 1000;
}

/** Fisher-Yates, in place, with the platform's uniform random integers. */
function shuffle<T>(items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
}

const VERIFY_USAGE = `Usage: verification-contracts webhooks verify --key KEY [--key OLD_KEY] --signature SIG [FILE|-]

Tells whether a captured webhook body (FILE, or standard input for - or no
FILE) and its X-SIGNATURE header match, and why not; then whether the body is
a webhook of the partner contract.

Options:
  --key KEY          the integration auth key; repeat it to try the previous
                     key too (after POST /auth-keys)
  --signature SIG    the X-SIGNATURE header as received
  -h, --help         this text

Exit status: 0 when the signature matches and the body is a valid webhook,
1 when it does not, 2 on bad arguments or an unreadable file.`;

async function verifyCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const options = { key: { type: 'string', multiple: true }, signature: { type: 'string' } } as const;
  const { values, positionals } = parseOptions('webhooks verify', VERIFY_USAGE, argv, options, true);
  const mistake = (message: string) => new UsageError(message, 'webhooks verify');
  if (!values.key?.length || values.key.includes('')) throw mistake('--key is required, and not empty');
  if (values.signature === undefined) throw mistake('--signature is required');
  if (positionals.length > 1) throw mistake('give one FILE at most');
  const source = positionals[0] ?? '-';
  let body: Buffer;
  try {
    body = source === '-' ? await buffer(process.stdin) : await readFile(source);
  } catch (err) {
    throw new UsageError(`cannot read ${source}: ${(err as Error).message}`);
  }

  let event: ReceivedWebhookEvent;
  try {
    // Judged as a receiver's parseWebhookEvent judges it: bytes that are not UTF-8 are refused, not replaced.
    event = parseWebhookEvent(body, values.signature, values.key);
  } catch (err) {
    if (err instanceof WebhookPayloadError) {
      out('signature: valid.');
      out(`payload: invalid, ${err.message}.`);
      return EXIT.failed;
    }
    // Anything else is no verdict on the body: a bug to surface, not "invalid".
    if (!(err instanceof WebhookSignatureError)) throw err;
    const { message, problem } = err;
    out(`invalid: ${message}.`);
    const last = body.at(-1);
    if (problem === 'mismatch' && (last === 0x0a || last === 0x0d)) {
      const trimmed = body.subarray(0, body.length - (body.at(-2) === 0x0d && last === 0x0a ? 2 : 1));
      if (verifyWebhookSignature(trimmed, values.signature, values.key))
        out('hint: it matches the body without its final newline; the capture added one.');
    }
    return EXIT.failed;
  }
  out('signature: valid.');
  // An UnknownWebhookEvent: a receiver answers 200 and ignores it.
  if (!isKnownWebhookEvent(event))
    out(
      `payload: a valid webhook of event type ${event.eventType}, which this version does not know; a receiver answers 200 and ignores it.`,
    );
  else out(`payload: a valid ${event.eventType} webhook.`);
  return EXIT.ok;
}

const CHECK_USAGE = `Usage: verification-contracts webhooks check URL --auth-key KEY [--previous-key KEY] [--timeout SECONDS] [--json]

Sends your receiver signed and forged webhooks, one at a time (at most 18
requests, to URL only, no redirect followed, fresh ids on every run), and
reports case by case whether each answer is what the service needs: 200 to
each event type, to a repeat, to events out of order, to a tie, to an event
type added later and (with --previous-key) to the previous key; anything but
200 to a changed body, another key's signature or none; every answer in time.
It judges answers only: what your receiver did with the events is for your
own test to assert (checkWebhookReceiver's onCase, guides/webhooks.md).

Options:
  --auth-key KEY       the integration auth key the service signs with
  --previous-key KEY   the key before the last POST /auth-keys, while a
                       rotation settles
  --timeout SECONDS    how long each answer may take (default ${DEFAULT_CHECK_TIMEOUT_MS / 1000}); the service's
                       own delivery timeout is not documented: the local
                       sandbox's 10 s is assumed
  --json               print the report as JSON instead of lines
  -h, --help           this text

Exit status: 0 when every case holds, 1 when any fails, 2 on bad arguments or
when URL cannot be reached.`;

async function checkCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const options = {
    'auth-key': { type: 'string' },
    'previous-key': { type: 'string' },
    timeout: { type: 'string', default: String(DEFAULT_CHECK_TIMEOUT_MS / 1000) },
    json: { type: 'boolean', default: false },
  } as const;
  const { values, positionals } = parseOptions('webhooks check', CHECK_USAGE, argv, options, true);
  const mistake = (message: string) => new UsageError(message, 'webhooks check');
  const [url, ...extra] = positionals;
  if (!url || !isWebAddress(url)) throw mistake('give the receiver as an http:// or https:// URL');
  if (extra.length) throw mistake(`unexpected argument "${extra[0]}": give one URL`);
  if (hasCredentials(url))
    throw mistake('the URL has a user or password in it; the service sends none, so give the address without them');
  if (!values['auth-key']) throw mistake('--auth-key is required: the auth key the service signs webhooks with');
  if (values['previous-key'] === '') throw mistake('--previous-key is empty: give the previous key, or leave it out');
  const timeoutMs = millisecondsOf(values.timeout, mistake);

  const report = await checkWebhookReceiver(url, {
    authKey: values['auth-key'],
    previousKey: values['previous-key'],
    timeoutMs,
  }).catch((err) => {
    // The first request could not connect: nothing was judged.
    throw new UsageError((err as Error).message);
  });
  if (values.json) out(JSON.stringify(report, null, 2));
  else {
    out('Fresh ids this run: every eventId, verificationId and userId sent is new (--json lists the events).');
    const marks = { passed: '✓', skipped: '-', failed: '✗' };
    for (const c of report.cases)
      out(`${marks[c.outcome]} ${c.rule}${c.problem === undefined ? '' : `: ${c.problem}`}`);
    const judged = report.cases.filter((c) => c.outcome !== 'skipped');
    const failed = judged.filter((c) => c.outcome === 'failed').length;
    out(
      failed
        ? `${failed} of ${judged.length} cases failed (${report.requests} requests): the service would retry or mishandle what failed; fix each ✗ above and run the check again.`
        : `all ${judged.length} cases hold (${report.requests} requests): the answers are what the service needs; what the receiver did with the events only your own test can check (onCase).`,
    );
  }
  return report.passed ? EXIT.ok : EXIT.failed;
}

const WEBHOOKS_USAGE = `Usage: ${PROGRAM} webhooks <send|verify|check> [options]

${SEND_USAGE.split('\n')[0]}
${VERIFY_USAGE.split('\n')[0]}
${CHECK_USAGE.split('\n')[0]}`;

/** `webhooks <command> …`: the command named first, with the rest of its words. */
export async function webhooksCommand(words: string[], out: (line: string) => void): Promise<number> {
  const [command, ...rest] = words;
  if (command === '--help' || command === '-h') throw new HelpRequested(WEBHOOKS_USAGE);
  if (command === 'send') return await sendCommand(rest, out);
  if (command === 'verify') return await verifyCommand(rest, out);
  if (command === 'check') return await checkCommand(rest, out);
  throw new UsageError(
    command === undefined ? 'webhooks needs a command, send, verify or check' : `unknown command "webhooks ${command}"`,
    'webhooks',
  );
}
