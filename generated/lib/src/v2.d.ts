import { type Client } from 'openapi-fetch';
import type { paths } from '../generated/types/v2.js';
import { type BaseClientOptions } from './client-options.js';
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
export declare function createV2Client(options: V2ClientOptions): V2Client;
