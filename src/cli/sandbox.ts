import { FAULTS, parseFaults, type FaultSpec } from '../sandbox/http/faults.js';
import {
  COMMAND_PORT,
  DECLARED_LISTEN_OPTIONS,
  DECLARED_OPTIONS,
  DEFAULT_HOST,
  type ListenSettings,
  type SandboxSettings,
} from '../sandbox/options.js';
import { serveSandbox } from '../sandbox/server.js';
import { withoutCredentials } from '../web-address.js';
import { EXIT, parseOptions, PROGRAM, UsageError } from './usage.js';

/** The rows that have a flag, with their names, in the order of --help. */
const flagged = [...DECLARED_LISTEN_OPTIONS, ...DECLARED_OPTIONS].flatMap(([name, { flag, ...read }]) =>
  flag ? [{ name, flag, ...read }] : [],
);
/** The parser's spec of the declared options' flags: a string, or a switch when the flag takes no value. */
const SETTINGS_FLAGS = Object.fromEntries(
  flagged.map(({ flag }) => [flag.name, { type: flag.value ? ('string' as const) : ('boolean' as const) }]),
);

/**
 * The options of a parsed command line (or of `environment` where a row names a variable), each read and checked by
 * its row; `refuse` is called with what is wrong, naming the flag or the variable.
 */
export function settingsFromFlags(
  values: Record<string, unknown>,
  refuse: (message: string) => never,
  environment: NodeJS.ProcessEnv = process.env,
): SandboxSettings & ListenSettings {
  const settings: Record<string, unknown> = {};
  for (const { name, flag, env, fromText, rule } of flagged) {
    // The flag wins over its environment variable; a refusal names the one read.
    const fromEnv = values[flag.name] === undefined && env !== undefined && environment[env] !== undefined;
    const text = fromEnv ? environment[env!] : values[flag.name];
    const source = fromEnv ? env! : `--${flag.name}`;
    if (text === undefined) continue;
    let value: unknown = text;
    try {
      if (typeof text === 'string' && fromText) value = fromText(text);
    } catch (err) {
      refuse(`${source}: ${(err as Error).message}`);
    }
    const refused = rule(value, source);
    if (refused) refuse(refused);
    settings[name] = value;
  }
  return settings;
}

/** --help's lines of the declared options: the flag, and its help from the 26th column (under the flag when it is longer). */
const settingsHelp = () =>
  flagged.flatMap(({ flag }) => {
    const head = `  --${flag.name}${flag.value ? ` ${flag.value}` : ''}`;
    const [first, ...rest] = flag.help.map((line) => `${' '.repeat(25)}${line}`);
    return [...(head.length < 25 ? [head.padEnd(25) + first.trimStart()] : [head, first]), ...rest];
  });

// The options' lines come from options.ts; --fault is the command's own
// (for this package's conformance tests).
export const SANDBOX_USAGE = `Usage: ${PROGRAM} sandbox [options]

Serves a stateful sandbox of both APIs (on 127.0.0.1 unless --host): the partner integration
API at /, the v2 read API at /v2, and the sandbox control API at /_sandbox
(act as the end user or the reviewer, move the clock, seed and reset).
Requests and answers are checked against the contract. Ctrl-C stops it.

Options:
${settingsHelp().join('\n')}
  --fault LIST           break the contract on purpose, to test a conformance run:
                         comma-separated faults, each for every operation or one
                         (missing-field@getUser). The faults:
${Object.entries(FAULTS)
  .map(([name, what]) => `                           ${name.padEnd(16)} ${what}`)
  .join('\n')}
  -h, --help             this text`;

export async function sandboxCommand(
  argv: string[],
  out: (line: string) => void,
  err: (line: string) => void = out,
): Promise<number> {
  const { values } = parseOptions('sandbox', SANDBOX_USAGE, argv, { ...SETTINGS_FLAGS, fault: { type: 'string' } });
  const refuse = (message: string): never => {
    throw new UsageError(message, 'sandbox');
  };
  const settings = settingsFromFlags(values, refuse);
  const port = settings.port ?? COMMAND_PORT;
  // PORT is what hosting platforms read; a partner who sets it expects it obeyed, so say it is not and what is.
  if (process.env.PORT !== undefined && settings.port === undefined) {
    err(
      `warning: PORT=${process.env.PORT} is not read by the sandbox, which listens on ${port}; to choose its port, pass --port ${process.env.PORT} or set SANDBOX_PORT=${process.env.PORT}.`,
    );
  }

  let faults: FaultSpec[] | undefined;
  try {
    faults = values.fault === undefined ? undefined : parseFaults(values.fault);
  } catch (err) {
    throw new UsageError(`--fault: ${(err as Error).message}`, 'sandbox');
  }

  let sandbox: Awaited<ReturnType<typeof serveSandbox>>;
  try {
    sandbox = await serveSandbox({
      ...settings,
      port,
      faults,
      // The export line printed at start goes stale with a rotation: print the one in force now.
      onAuthKeyChange: (authKey) => {
        out(`X-Auth-Key changed (POST /auth-keys, or a reset): ${authKey} is in force now; for your shell:`);
        out(`  ${exportLine({ ...sandbox, authKey })}`);
      },
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    const reason =
      code === 'EADDRINUSE' ? `port ${port} is in use; choose another with --port` : (err as Error).message;
    throw new UsageError(`cannot start the sandbox: ${reason}`);
  }
  out(`Sandbox listening on ${sandbox.url}`);
  // Both headers the partner document asks on every call: the sandbox refuses a call without the type.
  out(`  partner API   ${sandbox.url}/…            X-Auth-Key: ${sandbox.authKey}, Content-Type: application/json`);
  out(`  v2 API        ${sandbox.url}/v2/…         Authorization: Bearer ${sandbox.accessToken}`);
  out(`  control API   ${sandbox.url}/_sandbox/…   (no credentials)`);
  out(
    `  end user      open a verification's url in a browser to play the end user; ${sandbox.url}/ says what runs here`,
  );
  if (settings.host !== undefined || settings.allowedHosts !== undefined) {
    const added = settings.allowedHosts?.length ? `, and ${settings.allowedHosts.join(', ')} on any port` : ' only';
    out(
      `  host check    listening on ${settings.host ?? DEFAULT_HOST}; answers Host localhost, 127.0.0.1 or [::1] with port ${new URL(sandbox.url).port}${added} (--allowed-hosts adds names)`,
    );
  }
  const target = sandbox.partner.webhookTarget();
  // A state file written before addresses with credentials were refused may still hold one.
  out(
    `  webhooks      ${target === undefined ? 'not sent until PUT /partners sets webhookUrl' : withoutCredentials(target)}`,
  );
  if (settings.webhookFaults?.length)
    out(`  webhook faults ${settings.webhookFaults.join(', ')} (delivered as badly as the service may, on purpose)`);
  if (settings.state !== undefined)
    out(`  state         ${settings.state} (every acknowledged change survives a restart)`);
  if (faults?.length)
    out(
      `  FAULTS        ${faults.map((f) => f.fault + (f.operationId ? `@${f.operationId}` : '')).join(', ')} (breaks the contract on purpose)`,
    );
  out(`For your shell; each URL is the base URL its client takes (the v2 paths already start with /v2):`);
  out(`  ${exportLine(sandbox)}`);
  // The state file's saved keys win (S21); a flag that lost says so where it was given.
  for (const [flag, given, inForce] of [
    ['--auth-key', settings.authKey, sandbox.authKey],
    ['--access-token', settings.accessToken, sandbox.accessToken],
  ] as const) {
    if (given !== undefined && given !== inForce) {
      err(
        `warning: ${flag} ${given} is not in force: the state file ${settings.state} keeps its own credentials, and ${inForce} is in force. Use that, or delete ${settings.state} to start empty with ${flag} ${given}.`,
      );
    }
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // Said once the handlers are in place: a Ctrl-C as soon as it is read (a test's stop) stops cleanly.
    out('Ctrl-C stops it.');
  });
  await sandbox.close();
  out('Sandbox stopped.');
  return EXIT.ok;
}

/** A shell word: bare when it is safe, in single quotes otherwise. */
const shellWord = (value: string) => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

/** The variables the guides and the docs' samples read, set for this sandbox. */
function exportLine(sandbox: { url: string; authKey: string; accessToken: string }): string {
  const vars = {
    PARTNER_URL: sandbox.url,
    AUTH_KEY: sandbox.authKey,
    V2_URL: sandbox.url,
    ACCESS_TOKEN: sandbox.accessToken,
    SANDBOX_URL: sandbox.url,
  };
  return `export ${Object.entries(vars)
    .map(([name, value]) => `${name}=${shellWord(value)}`)
    .join(' ')}`;
}
