// The options both in-process doors take (startSandbox, createSandboxFetch),
// checked one way: a mistake is a TypeError naming the function and the
// option, before anything starts.

/** `functions`: the options that must be functions when given. */
type Checked = { authKey?: string; accessToken?: string; webhookUrl?: string; retryIntervalSeconds?: number; deliveryTimeoutSeconds?: number };

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
  for (const name of ['authKey', 'accessToken'] as const) {
    const value = options[name];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) fail(`${name} must be a non-empty string when given`);
  }
  for (const name of functions) {
    const value = (options as Record<string, unknown>)[name];
    if (value !== undefined && typeof value !== 'function') fail(`${name} must be a function when given`);
  }
}
