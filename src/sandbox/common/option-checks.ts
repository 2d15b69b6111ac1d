// The sandbox's own rule on the address it sends webhooks to, beyond the
// package's rule on any web address (src/web-address.ts): the option and the
// command's flag (options.ts) and `PUT /partners` all refuse the same.
import { hasCredentials } from '../../web-address.js';

/** Why a webhook address is refused: a user or password in it would go with every webhook into every log on the way; X-SIGNATURE proves the sender. */
export const webhookUrlRefusal = (webhookUrl: string): string | undefined =>
  hasCredentials(webhookUrl)
    ? 'a webhook address must not carry a user or password (https://user:password@…): webhooks prove they come from the service by X-SIGNATURE; drop the credentials from the address and check X-SIGNATURE in the receiver'
    : undefined;
