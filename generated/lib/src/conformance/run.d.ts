import { type ApiName } from './operations.js';
import { type ConformanceReport } from './report.js';
export interface ConformanceOptions {
    api: ApiName;
    baseUrl: string;
    /** The partner's X-Auth-Key or the v2 bearer token. */
    credential: string;
    seed: number;
    /** Generated requests to send (valid and invalid, spread over the operations). */
    requests: number;
    maxRequests: number;
    /** Requests per second; 0 for no limit. */
    rate: number;
    allowWrites: boolean;
    /** Run the webhook-delivery workflow: the partner's webhookUrl answers 200. */
    checkDelivery?: boolean;
    /** Rotate the auth key (POST /auth-keys) and write the new key to this file. */
    rotateKeyFile?: string;
}
/** Runs every part the options allow; throws UnreachableError when the target cannot be reached. */
export declare function runConformance(options: ConformanceOptions): Promise<ConformanceReport>;
