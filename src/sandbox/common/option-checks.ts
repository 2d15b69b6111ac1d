// The rules a web address the sandbox sends to must meet, one function each:
// the option and the command's flag (options.ts), `PUT /partners` and the
// addresses a verification redirects to (operations/partner.ts) all refuse
// the same addresses.

/** Whether a text is an http:// or https:// address with a host: a `javascript:` or `data:` URL, or a bare host name, is not. */
export const isWebAddress = (text: string): boolean => /^https?:\/\/[^/]/i.test(text);

/** Why a webhook address is refused: a user or password in it would go with every webhook into every log on the way; X-SIGNATURE proves the sender. */
export const webhookUrlRefusal = (webhookUrl: string): string | undefined =>
  /^[a-z][a-z\d+.-]*:\/\/[^/?#]*@/i.test(webhookUrl)
    ? 'a webhook address must not carry a user or password (https://user:password@…): webhooks prove they come from the service by X-SIGNATURE; drop the credentials from the address and check X-SIGNATURE in the receiver'
    : undefined;
