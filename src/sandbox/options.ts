// The sandbox's options, declared once (name in code, flag, help, rule) for the command, both in-process doors and the
// core: adding one is a field of SandboxSettings (or ListenSettings), its row, and the code that uses it.
import type { WebhookEvent } from '../webhooks/events.js';
import { isWebAddress } from '../web-address.js';
import { webhookUrlRefusal } from './partner/api.js';
import { WEBHOOK_FAULTS, webhookFaultsRefusal, type WebhookFaultName } from './common/webhook-faults.js';

/**
 * Delivery made worse on purpose, as the service may deliver (`--webhook-faults`):
 * `duplicate` delivers each webhook twice (the same body and `eventId`),
 * `reorder` holds webhooks for 1 s and sends each batch in a shuffled order,
 * `delay` holds each delivery attempt 3 s.
 */
export type WebhookFault = 'duplicate' | 'reorder' | 'delay';
// Written out above for the published declarations; tsc fails here when it and the delivery's own list part.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<WebhookFault, WebhookFaultName>;

/** The options the `sandbox` command, `startSandbox` and `createSandboxFetch` all take, under one name each. */
export interface SandboxSettings {
  /** The partner's first active `X-Auth-Key` (`--auth-key`); generated when absent. */
  authKey?: string;
  /** The v2 bearer token (`--access-token`); generated when absent. */
  accessToken?: string;
  /** Where webhooks are sent (`--webhook-url`); none until `PUT /partners` sets it when absent. */
  webhookUrl?: string;
  /** Seconds between retries of a webhook not answered 200 (`--retry-interval`); the service's 900 when absent. */
  retryIntervalSeconds?: number;
  /** Seconds one delivery attempt may take before it counts as unanswered and is retried (`--delivery-timeout`); 10 when absent. */
  deliveryTimeoutSeconds?: number;
  /** Accept and ignore body fields no operation documents, as partners who send extra fields on purpose need (`--allow-unknown-fields`); refused with 400 when absent. */
  allowUnknownFields?: boolean;
  /** Deliver webhooks as badly as the service may, so a receiver's tests meet it (`--webhook-faults`); none when absent. */
  webhookFaults?: WebhookFault[];
  /**
   * Names besides this machine's whose requests the sandbox answers, on any
   * port (`--allowed-hosts`, `SANDBOX_ALLOWED_HOSTS`), as a CI service's
   * `sandbox` or a proxy's name: a request with another `Host` (or another
   * page's `Origin` on `/_sandbox`) gets 403. Given to `createSandboxFetch`,
   * it guards the request's URL host likewise (unguarded when absent).
   */
  allowedHosts?: string[];
  /** Called with each webhook the sandbox emits (and its JSON text, which is what is signed), whether or not a `webhookUrl` is set. */
  onWebhook?: (event: WebhookEvent, body: string) => void;
  /** Called with one line for each webhook delivery that failed (event, address, status or error, when it is retried); written to stderr (`console.warn` by the fetch handler) when absent. */
  onDeliveryFailure?: (line: string) => void;
}

/** The options of the node:http door alone (the `sandbox` command, `startSandbox`): a fetch handler opens no port and keeps no file. */
export interface ListenSettings {
  /** The address to listen on (`--host`), 127.0.0.1 when absent; on any other the Host check still admits only this machine's names and `allowedHosts`. */
  host?: string;
  /** The port to listen on (`--port`, `SANDBOX_PORT`): 4020 for the command when absent, 0 for `startSandbox`, which asks the system for a free one. */
  port?: number;
  /** Keep the whole state in this file across restarts (`--state`); missing folders are created. Its saved key and token win over `authKey` and `accessToken`. */
  state?: string;
}

/** Where the sandbox listens when no `host` is given. */
export const DEFAULT_HOST = '127.0.0.1';
/** The port the `sandbox` command listens on when neither `--port` nor `SANDBOX_PORT` is given. */
export const COMMAND_PORT = 4020;

/** The rule a value meets: why it is refused, naming the option as `name` (its name in code, or its flag), or undefined when it is accepted. */
export type OptionRule = (value: unknown, name: string) => string | undefined;

export interface SandboxOption {
  rule: OptionRule;
  /** On the command line: the flag, the placeholder of its value (none for a switch) and its lines of --help. Absent for what only code can give (a function). */
  flag?: { name: string; value?: string; help: string[] };
  /** The environment variable read when the flag is not given. */
  env?: string;
  /** The flag's text as the value (the text itself when absent); throws, saying why, when it cannot be one. */
  fromText?: (text: string) => unknown;
}

const nonEmptyText: OptionRule = (value, name) =>
  typeof value === 'string' && value.trim() !== '' ? undefined : `${name} must be a non-empty string when given`;
const positiveSeconds: OptionRule = (value, name) =>
  typeof value === 'number' && value > 0 ? undefined : `${name} must be a positive number of seconds`;
export const aFunction: OptionRule = (value, name) =>
  typeof value === 'function' ? undefined : `${name} must be a function when given`;

/** A host name as a Host header carries it, without scheme, port or path: `sandbox`, `sandbox.test`, `10.0.0.7`, `[fd00::1]`. */
const isHostName = (name: unknown) => {
  if (typeof name !== 'string' || !URL.canParse(`http://${name}`)) return false;
  const url = new URL(`http://${name}`);
  return url.hostname === name.toLowerCase() && url.port === '' && `http://${name.toLowerCase()}/` === url.href;
};
const hostNames: OptionRule = (value, name) =>
  Array.isArray(value) && value.every(isHostName)
    ? undefined
    : `${name} must be a list of host names (such as sandbox.test, without scheme or port), not ${JSON.stringify(value)}`;
/** `sandbox,sandbox.test` as its names; throws naming an empty one. */
const commaSeparatedNames = (text: string) => {
  const names = text.split(',').map((name) => name.trim());
  if (names.includes('')) throw new Error(`an empty name in ${JSON.stringify(text)}; separate names with one comma`);
  return names;
};

const listenAddress: OptionRule = (value, name) =>
  typeof value === 'string' && value.trim() !== ''
    ? undefined
    : `${name} must be an address such as 0.0.0.0 or 127.0.0.1, not ${JSON.stringify(value)}`;
const isPort = (value: unknown) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65535;
const portNumber: OptionRule = (value, name) =>
  isPort(value) ? undefined : `${name} must be a port number, 0 to 65535, not ${JSON.stringify(value)}`;

const faultLines = Object.entries(WEBHOOK_FAULTS).map(([name, what]) => `  ${name.padEnd(10)} ${what}`);

// Typed by its rows, not inferred: the published declarations then name nothing of common/.
export const SANDBOX_OPTIONS: { [Name in keyof SandboxSettings]-?: SandboxOption } = {
  authKey: {
    rule: nonEmptyText,
    flag: { name: 'auth-key', value: 'KEY', help: ["the partner's first active X-Auth-Key (default: generated)"] },
  },
  accessToken: {
    rule: nonEmptyText,
    flag: { name: 'access-token', value: 'TOKEN', help: ['the v2 bearer token (default: generated)'] },
  },
  // A user or password in the address is refused after the rows (checkOptions).
  webhookUrl: {
    rule: (value, name) =>
      typeof value === 'string' && isWebAddress(value)
        ? undefined
        : `${name} must be an http:// or https:// URL, not ${JSON.stringify(value)}`,
    flag: {
      name: 'webhook-url',
      value: 'URL',
      help: ['where webhooks are sent (default: none; PUT /partners sets it)'],
    },
  },
  retryIntervalSeconds: {
    rule: positiveSeconds,
    flag: {
      name: 'retry-interval',
      value: 'SECS',
      help: ['retry interval of failed webhooks (default 900, as the service)'],
    },
    fromText: Number,
  },
  deliveryTimeoutSeconds: {
    rule: positiveSeconds,
    flag: {
      name: 'delivery-timeout',
      value: 'SECS',
      help: [
        'how long a webhook receiver may take to answer before the',
        'attempt counts as failed and is retried (default 10)',
      ],
    },
    fromText: Number,
  },
  webhookFaults: {
    rule: webhookFaultsRefusal,
    flag: {
      name: 'webhook-faults',
      value: 'LIST',
      help: [
        'deliver webhooks as badly as the service may, so your',
        'receiver meets it here first: comma-separated, of',
        ...faultLines,
        'POST /_sandbox/webhooks/{eventId}/resend sends one again',
      ],
    },
    // Each named once: `delay,delay` delays once.
    fromText: (text) => [...new Set(commaSeparatedNames(text))],
  },
  allowUnknownFields: {
    rule: (value, name) => (typeof value === 'boolean' ? undefined : `${name} must be true or false`),
    flag: {
      name: 'allow-unknown-fields',
      help: [
        'accept and ignore body fields no operation documents (default: 400',
        'naming the field, and the documented one it is close to)',
      ],
    },
  },
  allowedHosts: {
    rule: hostNames,
    flag: {
      name: 'allowed-hosts',
      value: 'NAMES',
      help: [
        'more names the Host check accepts, on any port, comma-',
        "separated (or SANDBOX_ALLOWED_HOSTS): a CI service's",
        "`sandbox`, a proxy's name; localhost, 127.0.0.1 and [::1]",
        "with the sandbox's port always pass, and only they when",
        'none is given, whatever --host',
      ],
    },
    env: 'SANDBOX_ALLOWED_HOSTS',
    fromText: commaSeparatedNames,
  },
  onWebhook: { rule: aFunction },
  onDeliveryFailure: { rule: aFunction },
};

/** The rows of SANDBOX_OPTIONS with their names, in the order of --help. */
export const DECLARED_OPTIONS = Object.entries(SANDBOX_OPTIONS) as [keyof SandboxSettings, SandboxOption][];

export const LISTEN_OPTIONS: { [Name in keyof ListenSettings]-?: SandboxOption } = {
  host: {
    rule: listenAddress,
    flag: {
      name: 'host',
      value: 'ADDRESS',
      help: [
        `address to listen on (default ${DEFAULT_HOST}; 0.0.0.0 for every`,
        'interface, as a CI service or a container); on any address',
        'only localhost, 127.0.0.1, [::1] and --allowed-hosts pass',
        'the Host check',
      ],
    },
  },
  port: {
    rule: portNumber,
    flag: { name: 'port', value: 'PORT', help: [`port to listen on (default ${COMMAND_PORT}, or SANDBOX_PORT)`] },
    env: 'SANDBOX_PORT',
    // The text itself when it is no port, so that the refusal quotes what was typed.
    fromText: (text) => (/^\d+$/.test(text) && isPort(Number(text)) ? Number(text) : text),
  },
  state: {
    rule: nonEmptyText,
    flag: {
      name: 'state',
      value: 'FILE',
      help: [
        'keep the whole state in FILE across restarts and crashes',
        '(created with its folders when missing; its saved keys win',
        'over --auth-key and --access-token)',
      ],
    },
  },
};

/** The rows of LISTEN_OPTIONS with their names, in the order of --help. */
export const DECLARED_LISTEN_OPTIONS = Object.entries(LISTEN_OPTIONS) as [keyof ListenSettings, SandboxOption][];

/** The rules of LISTEN_OPTIONS by name, for `checkOptions` at the node:http door. */
export const LISTEN_RULES = Object.fromEntries(DECLARED_LISTEN_OPTIONS.map(([name, option]) => [name, option.rule]));

/** Checks the declared options and the door's own `rules`: a mistake is a TypeError naming the function and the option. */
export function checkOptions(caller: string, options: object, rules: Record<string, OptionRule> = {}): void {
  const given = options as Record<string, unknown>;
  const declared = DECLARED_OPTIONS.map(([name, option]): [string, OptionRule] => [name, option.rule]);
  const all = [...declared, ...Object.entries(rules)];
  for (const [name, rule] of all) {
    const refused = given[name] === undefined ? undefined : rule(given[name], name);
    if (refused) throw new TypeError(`${caller}: ${refused}`);
  }
  // The partner's rule on any webhook address, which the server and PUT /partners apply in words of their own.
  const credentials = typeof given.webhookUrl === 'string' ? webhookUrlRefusal(given.webhookUrl) : undefined;
  if (credentials) throw new TypeError(`${caller}: webhookUrl refused: ${credentials}`);
}

/** The declared options among `options`, and nothing else: an option of another door given by untyped code changes nothing. */
export const pickSettings = (options: SandboxSettings): SandboxSettings =>
  Object.fromEntries(
    DECLARED_OPTIONS.flatMap(([name]) => (options[name] === undefined ? [] : [[name, options[name]]])),
  );
