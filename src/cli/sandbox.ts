import { FAULTS, parseFaults, type FaultSpec } from '../sandbox/http/faults.js';
import { parseWebhookFaults, WEBHOOK_FAULTS, type WebhookFaultName } from '../sandbox/common/webhook-faults.js';
import { serveSandbox } from '../sandbox/server.js';
import { EXIT, parseOptions, UsageError } from './usage.js';

export const SANDBOX_USAGE = `Usage: verification-contracts sandbox [--port PORT] [--auth-key KEY] [--access-token TOKEN]
                                     [--webhook-url URL] [--retry-interval SECONDS]
                                     [--delivery-timeout SECONDS] [--allow-unknown-fields]
                                     [--webhook-faults LIST] [--state FILE] [--fault LIST]

Serves a stateful sandbox of both APIs on 127.0.0.1: the partner integration
API at /, the v2 read API at /v2, and the sandbox control API at /_sandbox
(act as the end user or the reviewer, move the clock, seed and reset).
Requests and answers are checked against the contract. Ctrl-C stops it.

Options:
  --port PORT            port to listen on (default 4020, or SANDBOX_PORT)
  --auth-key KEY         the partner's first active X-Auth-Key (default: generated)
  --access-token TOKEN   the v2 bearer token (default: generated)
  --webhook-url URL      where webhooks are sent (default: none; PUT /partners sets it)
  --retry-interval SECS  retry interval of failed webhooks (default 900, as the service)
  --delivery-timeout SECS
                         how long a webhook receiver may take to answer before the
                         attempt counts as failed and is retried (default 10)
  --webhook-faults LIST  deliver webhooks as badly as the service may, so your
                         receiver meets it here first: comma-separated, of
${Object.entries(WEBHOOK_FAULTS).map(([name, what]) => `                           ${name.padEnd(10)} ${what}`).join('\n')}
                         POST /_sandbox/webhooks/{eventId}/resend sends one again
  --allow-unknown-fields accept body fields no operation documents (default: 400
                         naming the field, and the documented one it is close to)
  --state FILE           keep the whole state in FILE across restarts and crashes
                         (created with its folders when missing; its saved keys win
                         over --auth-key and --access-token)
  --fault LIST           break the contract on purpose, to test a conformance run:
                         comma-separated faults, each for every operation or one
                         (missing-field@getUser). The faults:
${Object.entries(FAULTS).map(([name, what]) => `                           ${name.padEnd(16)} ${what}`).join('\n')}
  -h, --help             this text`;

export async function sandboxCommand(argv: string[], out: (line: string) => void, err: (line: string) => void = out): Promise<number> {
  const { values } = parseOptions('sandbox', argv, {
    port: { type: 'string' },
    'auth-key': { type: 'string' },
    'access-token': { type: 'string' },
    'webhook-url': { type: 'string' },
    'retry-interval': { type: 'string' },
    'delivery-timeout': { type: 'string' },
    'webhook-faults': { type: 'string' },
    'allow-unknown-fields': { type: 'boolean' },
    state: { type: 'string' },
    fault: { type: 'string' },
  });
  if (values.help) {
    out(SANDBOX_USAGE);
    return EXIT.ok;
  }
  const rawPort = values.port ?? process.env.SANDBOX_PORT ?? '4020';
  const port = Number(rawPort);
  const portName = values.port !== undefined ? '--port' : 'SANDBOX_PORT';
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`${portName} must be a port number, 0 to 65535, not "${rawPort}"`, 'sandbox');
  // PORT is what hosting platforms and many servers read; a partner who sets it
  // expects it obeyed, so say it is not and what is.
  if (process.env.PORT !== undefined && values.port === undefined && process.env.SANDBOX_PORT === undefined) {
    err(`warning: PORT=${process.env.PORT} is not read by the sandbox, which listens on ${port}; to choose its port, pass --port ${process.env.PORT} or set SANDBOX_PORT=${process.env.PORT}.`);
  }
  for (const name of ['auth-key', 'access-token', 'state'] as const) {
    if (values[name] !== undefined && values[name]!.trim() === '') throw new UsageError(`--${name} must not be empty`, 'sandbox');
  }

  const webhookUrl = values['webhook-url'];
  if (webhookUrl !== undefined && !/^https?:\/\/[^/]/.test(webhookUrl)) throw new UsageError('--webhook-url must be an http:// or https:// URL', 'sandbox');
  const retrySeconds = values['retry-interval'] === undefined ? undefined : Number(values['retry-interval']);
  if (retrySeconds !== undefined && !(retrySeconds > 0)) throw new UsageError('--retry-interval must be a positive number of seconds', 'sandbox');
  const timeoutSeconds = values['delivery-timeout'] === undefined ? undefined : Number(values['delivery-timeout']);
  if (timeoutSeconds !== undefined && !(timeoutSeconds > 0)) throw new UsageError('--delivery-timeout must be a positive number of seconds', 'sandbox');

  let webhookFaults: WebhookFaultName[] | undefined;
  try {
    webhookFaults = values['webhook-faults'] === undefined ? undefined : parseWebhookFaults(values['webhook-faults']);
  } catch (err) {
    throw new UsageError(`--webhook-faults: ${(err as Error).message}`, 'sandbox');
  }
  let faults: FaultSpec[] | undefined;
  try {
    faults = values.fault === undefined ? undefined : parseFaults(values.fault);
  } catch (err) {
    throw new UsageError(`--fault: ${(err as Error).message}`, 'sandbox');
  }

  let sandbox;
  try {
    sandbox = await serveSandbox({
      port,
      authKey: values['auth-key'],
      accessToken: values['access-token'],
      webhookUrl,
      retryIntervalSeconds: retrySeconds,
      deliveryTimeoutSeconds: timeoutSeconds,
      webhookFaults,
      allowUnknownFields: values['allow-unknown-fields'],
      state: values.state,
      faults,
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    const reason = code === 'EADDRINUSE' ? `port ${port} is in use; choose another with --port` : (err as Error).message;
    throw new UsageError(`cannot start the sandbox: ${reason}`);
  }
  out(`Sandbox listening on ${sandbox.url}`);
  out(`  partner API   ${sandbox.url}/…            X-Auth-Key: ${sandbox.authKey}`);
  out(`  v2 API        ${sandbox.url}/v2/…         Authorization: Bearer ${sandbox.accessToken}`);
  out(`  control API   ${sandbox.url}/_sandbox/…   (no credentials)`);
  out(`  end user      open a verification's url in a browser to play the end user; ${sandbox.url}/ says what runs here`);
  const target = sandbox.partner.webhookTarget();
  out(`  webhooks      ${target ?? 'not sent until PUT /partners sets webhookUrl'}`);
  if (webhookFaults?.length) out(`  webhook faults ${webhookFaults.join(', ')} (delivered as badly as the service may, on purpose)`);
  if (values.state !== undefined) out(`  state         ${values.state} (every acknowledged change survives a restart)`);
  if (faults?.length) out(`  FAULTS        ${faults.map((f) => f.fault + (f.operationId ? `@${f.operationId}` : '')).join(', ')} (breaks the contract on purpose)`);
  out(`For your shell; each URL is the base URL its client takes (the v2 paths already start with /v2):`);
  out(`  ${exportLine(sandbox)}`);
  // The state file's saved keys win (S21); a flag that lost says so where it was given.
  for (const [flag, given, inForce] of [['--auth-key', values['auth-key'], sandbox.authKey], ['--access-token', values['access-token'], sandbox.accessToken]] as const) {
    if (given !== undefined && given !== inForce) {
      err(`warning: ${flag} ${given} is not in force: the state file ${values.state} keeps its own credentials, and ${inForce} is in force. Use that, or delete ${values.state} to start empty with ${flag} ${given}.`);
    }
  }
  out('Ctrl-C stops it.');
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await sandbox.close();
  out('Sandbox stopped.');
  return EXIT.ok;
}

/** A shell word: bare when it is safe, in single quotes otherwise. */
const shellWord = (value: string) => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

/** The variables the guides and the docs' samples read, set for this sandbox. */
export function exportLine(sandbox: { url: string; authKey: string; accessToken: string }): string {
  const vars = { PARTNER_URL: sandbox.url, AUTH_KEY: sandbox.authKey, V2_URL: sandbox.url, ACCESS_TOKEN: sandbox.accessToken, SANDBOX_URL: sandbox.url };
  return `export ${Object.entries(vars).map(([name, value]) => `${name}=${shellWord(value)}`).join(' ')}`;
}
