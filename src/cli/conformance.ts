import { randomInt } from 'node:crypto';
import { constants } from 'node:fs';
import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TargetError } from '../conformance/http.js';
import { formatJunit, formatText } from '../conformance/report.js';
import { runConformance } from '../conformance/run.js';
import { EXIT, parseOptions, UsageError } from './usage.js';
import { isWebAddress } from '../web-address.js';

const CONFORMANCE_USAGE = `Usage: verification-contracts conformance --api partner --base-url URL --auth-key KEY [options]
       verification-contracts conformance --api v2 --base-url URL --access-token TOKEN [options]

Checks a running deployment against the contract of this package: the
documented 401s, seeded requests generated from the contract (valid ones and
ones breaking one rule), and with --allow-writes the documented sequences.
Read-only by default.

Options:
  --api partner|v2       which API to check
  --base-url URL         the deployment, http:// or https:// (no request leaves it)
  --auth-key KEY         partner: the X-Auth-Key (or CONFORMANCE_AUTH_KEY)
  --access-token TOKEN   v2: the bearer token (or CONFORMANCE_ACCESS_TOKEN)
  --seed N               reproduce a run (default: random, printed)
  --requests N           generated requests to send (default 300)
  --max-requests N       never send more than N requests in all (default 1000)
  --rate N               at most N requests per second; 0: no limit (default 10)
  --allow-writes         also call the writing operations and run the workflows
  --check-delivery       also run the webhook-delivery workflow (the partner's
                         webhookUrl must answer 200); needs --allow-writes
  --rotate-key FILE      also rotate the auth key (POST /auth-keys invalidates the key
                         in use at once) and write the new key to FILE as soon as the
                         rotation answers; needs --allow-writes
  --fail-on all|documented
                         which violations make the exit status 1: all (default), or
                         only those of the documents' rules, not of the contract's
                         assumptions where the documents are silent
  --json                 print the report as JSON instead of text
  --junit FILE           also write the report as JUnit XML to FILE
  -h, --help             this text

--base-url is what the documented paths are appended to (v2's paths start
with /v2: give the URL without it). A refused credential or a 404 on every
path tried stops the run at once. Progress goes to stderr, the report to
stdout; credentials are never printed. Each violation says whether it breaks
the documents' rule or an assumption (its row on the assumptions page).

Exit status: 0 on no violation (with --fail-on documented: none of the
documents' rules), 1 on any, 2 on bad arguments, a target that cannot be
reached, a refused credential or a wrong base URL.`;

/** A mistake in the command's options, pointing at its --help. */
const mistake = (message: string) => new UsageError(message, 'conformance');

function count(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw mistake(`--${name} must be a whole number of at least ${min}, not "${value}"`);
  return n;
}

export async function conformanceCommand(
  argv: string[],
  out: (line: string) => void,
  err: (line: string) => void = () => undefined,
): Promise<number> {
  const { values } = parseOptions('conformance', CONFORMANCE_USAGE, argv, {
    api: { type: 'string' },
    'base-url': { type: 'string' },
    'auth-key': { type: 'string' },
    'access-token': { type: 'string' },
    seed: { type: 'string' },
    requests: { type: 'string' },
    'max-requests': { type: 'string' },
    rate: { type: 'string' },
    'allow-writes': { type: 'boolean', default: false },
    'rotate-key': { type: 'string' },
    'check-delivery': { type: 'boolean', default: false },
    'fail-on': { type: 'string' },
    json: { type: 'boolean', default: false },
    junit: { type: 'string' },
  });
  const api = values.api;
  if (api !== 'partner' && api !== 'v2') throw mistake('--api must be partner or v2');
  const baseUrl = values['base-url'];
  if (!baseUrl || !isWebAddress(baseUrl) || !URL.canParse(baseUrl))
    throw mistake('--base-url must be an http:// or https:// URL');
  const [flag, other, variable] =
    api === 'partner'
      ? (['auth-key', 'access-token', 'CONFORMANCE_AUTH_KEY'] as const)
      : (['access-token', 'auth-key', 'CONFORMANCE_ACCESS_TOKEN'] as const);
  if (values[other] !== undefined) throw mistake(`the ${api} API takes --${flag}, not --${other}`);
  const credential = values[flag] ?? process.env[variable];
  if (!credential?.trim()) throw mistake(`--${flag} is required for --api ${api}`);
  if (values['rotate-key'] !== undefined && (!values['allow-writes'] || api !== 'partner'))
    throw mistake('--rotate-key needs --api partner and --allow-writes');
  const failOn = values['fail-on'] ?? 'all';
  if (failOn !== 'all' && failOn !== 'documented')
    throw mistake(`--fail-on must be all or documented, not "${failOn}"`);
  if (values['rotate-key'] !== undefined) await writableKeyFile(values['rotate-key']);
  const seed = count(values.seed, 'seed', 0) ?? randomInt(0, 2 ** 31);
  const maxRequests = count(values['max-requests'], 'max-requests', 1) ?? 1000;
  const requests = count(values.requests, 'requests', 0) ?? Math.min(300, maxRequests);
  const rate = values.rate === undefined ? 10 : Number(values.rate);
  if (!(rate >= 0)) throw mistake(`--rate must be a number of requests per second (0: no limit), not "${values.rate}"`);

  const report = await runConformance({
    api,
    baseUrl,
    credential,
    seed,
    requests,
    maxRequests,
    rate,
    allowWrites: values['allow-writes'],
    checkDelivery: values['check-delivery'],
    rotateKeyFile: values['rotate-key'],
    progress: (line) => err(`conformance: ${line}`),
  }).catch((e) => {
    throw e instanceof TargetError ? new UsageError(e.message) : e;
  });
  if (values.junit) await writeFile(values.junit, formatJunit(report));
  out(values.json ? JSON.stringify(report, null, 2) : formatText(report));
  // --fail-on documented: only violations of the documents' rules, not of the contract's assumptions, fail the run.
  const failing = report.violations.filter((v) => failOn === 'all' || v.basis === 'documents');
  return failing.length ? EXIT.failed : EXIT.ok;
}

/** The new key must have somewhere to go before the old one is given up: checked before anything is sent. */
async function writableKeyFile(file: string): Promise<void> {
  // A file that exists must be writable; a new one needs a folder that is.
  const checked = await access(file).then(
    () => file,
    () => path.dirname(path.resolve(file)),
  );
  await access(checked, constants.W_OK).catch((err: NodeJS.ErrnoException) => {
    const what = checked === file ? 'cannot be written' : 'is in a folder that cannot be written to';
    throw mistake(
      `--rotate-key ${file} ${what} (${err.code}): give a file you may write in a folder that exists; nothing was sent`,
    );
  });
}
