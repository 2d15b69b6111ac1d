// `webhooks check URL`: the receiver check of src/webhooks/check.ts on the
// command line, one line per case and a verdict, or the report as JSON.
import { checkWebhookReceiver, DEFAULT_CHECK_TIMEOUT_MS } from '../webhooks/check.js';
import { EXIT, parseOptions, UsageError } from './usage.js';
import { hasCredentials, isWebAddress } from '../web-address.js';

export const CHECK_USAGE = `Usage: verification-contracts webhooks check URL --auth-key KEY [--previous-key KEY] [--timeout SECONDS] [--json]

Checks your receiver's answers (their status codes) to what the service may
send: sends it signed and forged webhooks, one at a time, and reports case
by case:
  - each of the 7 event types, signed with KEY, is answered 200;
  - a body changed after signing, a signature from another key and a missing
    X-SIGNATURE are not answered 200;
  - the same event twice is answered 200 both times (delivery is at least once);
  - verification.updated, then its verification.created, are both answered 200
    (the documents give the order events are generated in, not the order of delivery);
  - two verification.updated of one verification with the same updatedAt and
    different statuses are both answered 200;
  - an event type added later is answered 200;
  - with --previous-key, an event signed with the previous key is answered 200;
  - every answer comes within the delivery timeout.
It judges answers only: what your receiver does with an event (a repeat acted
on once, a late event not overwriting newer data) is for your own test to
assert, with checkWebhookReceiver's onCase (the package's guides/webhooks.md,
"Check your receiver").
Every run uses fresh ids (each eventId, verificationId and userId is new), so
your store takes the events as new ones, not as repeats of an earlier run;
--json lists the events sent. It sends at most 18 requests, to URL only, and
follows no redirect (a 3xx is an answer other than 200, which the service
retries every 15 minutes). Of each answer it reads at most 4 KiB, and prints
control characters escaped (\\x1b).

Options:
  --auth-key KEY       the integration auth key the service signs with
  --previous-key KEY   the key before the last POST /auth-keys, while a
                       rotation settles
  --timeout SECONDS    how long each answer may take (default ${DEFAULT_CHECK_TIMEOUT_MS / 1000}); the service's
                       own delivery timeout is not documented: the sandbox's
                       10 s is assumed
  --json               print the report as JSON instead of lines
  -h, --help           this text

Exit status: 0 when every case holds, 1 when any fails, 2 on bad arguments or
when URL cannot be reached.`;

export async function checkCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseOptions(
    'webhooks check',
    argv,
    {
      'auth-key': { type: 'string' },
      'previous-key': { type: 'string' },
      timeout: { type: 'string', default: String(DEFAULT_CHECK_TIMEOUT_MS / 1000) },
      json: { type: 'boolean', default: false },
    },
    true,
  );
  if (values.help) {
    out(CHECK_USAGE);
    return EXIT.ok;
  }
  const [url, ...extra] = positionals;
  if (!url || !isWebAddress(url))
    throw new UsageError('give the receiver as an http:// or https:// URL', 'webhooks check');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}": give one URL`, 'webhooks check');
  if (hasCredentials(url))
    throw new UsageError(
      'the URL has a user or password in it; the service sends none, so give the address without them',
      'webhooks check',
    );
  if (!values['auth-key'])
    throw new UsageError('--auth-key is required: the auth key the service signs webhooks with', 'webhooks check');
  const timeout = Number(values.timeout);
  if (!(timeout > 0)) throw new UsageError('--timeout must be a positive number of seconds', 'webhooks check');

  let report: Awaited<ReturnType<typeof checkWebhookReceiver>>;
  try {
    report = await checkWebhookReceiver(url, {
      authKey: values['auth-key'],
      previousKey: values['previous-key'],
      timeoutMs: timeout * 1000,
    });
  } catch (err) {
    // The first request could not connect: nothing was judged.
    throw new UsageError((err as Error).message);
  }
  if (values.json) out(JSON.stringify(report, null, 2));
  else {
    out('Fresh ids this run: every eventId, verificationId and userId sent is new (--json lists the events).');
    for (const c of report.cases) {
      if (c.outcome === 'passed') out(`✓ ${c.rule}`);
      else if (c.outcome === 'skipped') out(`- ${c.rule}: ${c.problem}`);
      else out(`✗ ${c.rule}: ${c.problem}`);
    }
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
