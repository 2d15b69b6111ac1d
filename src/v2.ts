import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../generated/types/v2.js';
import { clientOptions, type BaseClientOptions } from './client-options.js';

export type { paths, components, operations } from '../generated/types/v2.js';

export interface V2ClientOptions extends BaseClientOptions {
  /** The access token, sent as `Authorization: Bearer <token>`. */
  accessToken: string;
}

/** A typed client of the v2 read API. */
export type V2Client = Client<paths>;

/**
 * Creates an openapi-fetch client of the v2 read API that sends the bearer
 * token on every request and repeats `statuses` once per value.
 *
 * ```ts
 * const v2 = createV2Client({ baseUrl: process.env.V2_URL!, accessToken });
 * const { data, error } = await v2.GET('/v2/verifications/', {
 *   params: { query: { statuses: ['APPROVED', 'DECLINED'] } },
 * });
 * ```
 */
export function createV2Client(options: V2ClientOptions): V2Client {
  // The paths start with /v2 (`/v2/verifications/`): a base URL ending in
  // /v2 would request /v2/v2/… and get 404 on every call.
  const address = typeof options?.baseUrl === 'string' ? options.baseUrl.split(/[?#]/)[0] : '';
  if (/\/v2\/*$/i.test(address))
    throw new TypeError(
      `createV2Client: baseUrl "${options.baseUrl}" ends in /v2, but the paths already start with /v2 ('/v2/verifications/'); drop it: baseUrl: "${address.replace(/\/v2\/*$/i, '')}"`,
    );
  return createClient<paths>(
    clientOptions(
      'createV2Client',
      options,
      {
        option: 'accessToken',
        value: options?.accessToken,
        header: 'Authorization',
        format: (token) => `Bearer ${token}`,
      },
      // `statuses` is form, exploded: `statuses=A&statuses=B`.
      { style: 'form', explode: true },
      { variable: 'V2_URL', mockPort: 4010 },
    ),
  );
}
