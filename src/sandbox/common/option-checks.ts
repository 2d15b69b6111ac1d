// The options both in-process doors take (startSandbox, createSandboxFetch),
// checked one way: a mistake is a TypeError naming the function and the
// option, before anything starts. The rule on a webhook address is shared
// with the server's options and `PUT /partners`, so each refuses the same.
import { webhookFaultsRefusal } from './webhook-faults.js';

/** Why a webhook address is refused: a user or password in it would go with every webhook into every log on the way; X-SIGNATURE proves the sender. */
export const webhookUrlRefusal = (webhookUrl: string): string | undefined =>
  /^[a-z][a-z\d+.-]*:\/\/[^/?#]*@/i.test(webhookUrl)
    ? 'a webhook address must not carry a user or password (https://user:password@…): webhooks prove they come from the service by X-SIGNATURE; drop the credentials from the address and check X-SIGNATURE in the receiver'
    : undefined;

/** `functions`: the options that must be functions when given. */
type Checked = { authKey?: string; accessToken?: string; webhookUrl?: string; retryIntervalSeconds?: number; deliveryTimeoutSeconds?: number; webhookFaults?: unknown };

export function checkSharedOptions(caller: string, options: Checked, functions: string[]): void {
  const fail = (what: string) => {
    throw new TypeError(`${caller}: ${what}`);
  };
  for (const name of ['retryIntervalSeconds', 'deliveryTimeoutSeconds'] as const) {
    const value = options[name];
    if (value !== undefined && !(value > 0)) fail(`${name} must be a positive number of seconds, not ${value}`);
  }
  const { webhookUrl } = options;
  if (webhookUrl !== undefined && !/^https?:\/\/[^/]/.test(webhookUrl)) fail(`webhookUrl must be an http:// or https:// URL, not ${JSON.stringify(webhookUrl)}`);
  const refused = webhookUrlRefusal(webhookUrl ?? '');
  if (refused) fail(`webhookUrl refused: ${refused}`);
  for (const name of ['authKey', 'accessToken'] as const) {
    const value = options[name];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) fail(`${name} must be a non-empty string when given`);
  }
  const faultsRefused = options.webhookFaults === undefined ? undefined : webhookFaultsRefusal(options.webhookFaults);
  if (faultsRefused) fail(faultsRefused);
  for (const name of functions) {
    const value = (options as Record<string, unknown>)[name];
    if (value !== undefined && typeof value !== 'function') fail(`${name} must be a function when given`);
  }
}
