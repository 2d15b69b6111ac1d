// What the package takes for a web address wherever it is given one (a client's
// `baseUrl`, a `webhookUrl`, `--base-url`): one rule, so each part refuses the same.

/** Whether a text is an http:// or https:// address with a host: a `javascript:` or `data:` URL, or a bare host name, is not. */
export const isWebAddress = (text: string): boolean => /^https?:\/\/[^/]/i.test(text);

/** The user and password in an address, up to its `@`. */
const CREDENTIALS = /^([a-z][a-z\d+.-]*:\/\/)[^/?#]*@/i;

/** Whether an address carries a user or password (`https://user:password@…`), which would reach every log on its way. */
export const hasCredentials = (text: string): boolean => CREDENTIALS.test(text);

/** An address as a log line may show it (`https://***@host/…`): one may come from an older state file. */
export const withoutCredentials = (text: string): string => text.replace(CREDENTIALS, '$1***@');
