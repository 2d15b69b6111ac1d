import createClient, {} from 'openapi-fetch';
import { clientOptions } from './client-options.js';
/**
 * Creates an openapi-fetch client of the v2 read API that sends the bearer
 * token on every request and repeats `statuses` once per value.
 *
 * ```ts
 * const v2 = createV2Client({ baseUrl: 'http://127.0.0.1:4010', accessToken });
 * const { data, error } = await v2.GET('/v2/verifications/', {
 *   params: { query: { statuses: ['APPROVED', 'DECLINED'] } },
 * });
 * ```
 */
export function createV2Client(options) {
    return createClient(clientOptions('createV2Client', options, { option: 'accessToken', value: options?.accessToken, header: 'Authorization', format: (token) => `Bearer ${token}` }, 
    // `statuses` is form, exploded: `statuses=A&statuses=B`.
    { style: 'form', explode: true }));
}
