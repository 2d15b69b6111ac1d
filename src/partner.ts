import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../generated/types/partner.js';
import { clientOptions, type BaseClientOptions } from './client-options.js';

export type { paths, components, operations, webhooks } from '../generated/types/partner.js';
export {
  narrowVerification,
  type CompletedVerification,
  type NarrowedVerification,
  type PendingVerification,
  type RevertedVerification,
} from './verification-states.js';

export interface PartnerClientOptions extends BaseClientOptions {
  /** The integration auth key, sent as `X-Auth-Key`. */
  authKey: string;
}

/** A typed client of the partner integration API. */
export type PartnerClient = Client<paths>;

/**
 * Creates an openapi-fetch client of the partner integration API. Every call
 * carries `X-Auth-Key` and `Content-Type: application/json`, as the service
 * asks, and array filters are sent comma-separated (`status=inReview,completed`).
 *
 * After `POST /auth-keys` the key this client holds is no longer accepted:
 * create a new client with the new key.
 *
 * ```ts
 * const partner = createPartnerClient({ baseUrl: process.env.PARTNER_URL!, authKey });
 * const { data } = await partner.GET('/verifications', {
 *   params: { query: { status: ['inReview', 'completed'], limit: 50 } },
 * });
 * ```
 */
export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  return createClient<paths>(
    clientOptions(
      'createPartnerClient',
      options,
      { option: 'authKey', value: options?.authKey, header: 'X-Auth-Key', format: (key) => key },
      // Every array filter of the partner document is form, not exploded.
      { style: 'form', explode: false },
      { variable: 'PARTNER_URL', mockPort: 4011 },
      { 'Content-Type': 'application/json' },
    ),
  );
}
