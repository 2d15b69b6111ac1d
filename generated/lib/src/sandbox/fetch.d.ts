import type { WebhookEvent } from '../webhooks/events.js';
export interface SandboxFetchOptions {
    /** The partner's first active `X-Auth-Key`; generated when absent. */
    authKey?: string;
    /** The v2 bearer token; generated when absent. */
    accessToken?: string;
    /** Where webhooks are sent; none until `PUT /partners` sets it when absent. */
    webhookUrl?: string;
    /** Sends each webhook (the global `fetch` when absent): give a handler to receive them in-process. */
    fetch?: (request: Request) => Promise<Response>;
    /** Seconds between retries of a webhook not answered 200; the service's 900 when absent. */
    retryIntervalSeconds?: number;
    /** Seconds one delivery attempt may take before it counts as unanswered and is retried; 10 when absent. */
    deliveryTimeoutSeconds?: number;
    /** Accept body fields no operation documents; refused with 400 when absent. */
    allowUnknownFields?: boolean;
    /** The time the sandbox clock starts from (real time when absent); the control API moves it forward. */
    now?: () => Date;
    /**
     * The base URL a verification's `url` (the end user's page) carries, and
     * the home page names; `http://sandbox.localhost` when absent. The sandbox
     * answers a request to any host.
     */
    url?: string;
    /** Called with each webhook the sandbox emits (and its JSON text, which is what is signed), whether or not a `webhookUrl` is set. */
    onWebhook?: (event: WebhookEvent, body: string) => void;
    /** Called with one line for each webhook delivery that failed; `console.warn` when absent. */
    onDeliveryFailure?: (line: string) => void;
}
export interface SandboxFetch {
    /** Answers a request to the partner API, v2 (`/v2/…`), the control API (`/_sandbox/…`) or an end user's page, at any base URL. */
    fetch(request: Request): Promise<Response>;
    /** The partner's active `X-Auth-Key`, as it is now (`POST /auth-keys` rotates it). */
    readonly authKey: string;
    /** The v2 bearer token. */
    readonly accessToken: string;
    /** The base URL of verification `url`s. */
    readonly url: string;
    /** Stops webhook retries. */
    close(): void;
}
/**
 * The stateful sandbox as a fetch handler, with no port. One per test file
 * (or `POST /_sandbox/reset` between tests).
 *
 * ```ts
 * const sandbox = await createSandboxFetch();
 * const partner = createPartnerClient({ baseUrl: 'https://api.example.test', authKey: sandbox.authKey, fetch: sandbox.fetch });
 * ```
 */
export declare function createSandboxFetch(options?: SandboxFetchOptions): Promise<SandboxFetch>;
