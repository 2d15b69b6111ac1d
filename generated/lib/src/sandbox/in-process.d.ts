import type { WebhookEvent } from '../webhooks/events.js';
export interface StartSandboxOptions {
    /** Port to listen on, on 127.0.0.1; 0 (the default here) asks the system for a free one. */
    port?: number;
    /** The partner's first active `X-Auth-Key` (`--auth-key`); generated when absent. */
    authKey?: string;
    /** The v2 bearer token (`--access-token`); generated when absent. */
    accessToken?: string;
    /** Where webhooks are sent (`--webhook-url`); none until `PUT /partners` sets it when absent. */
    webhookUrl?: string;
    /** Seconds between retries of a webhook not answered 200 (`--retry-interval`); the service's 900 when absent. */
    retryIntervalSeconds?: number;
    /** Seconds one delivery attempt may take before it counts as unanswered and is retried (`--delivery-timeout`); 10 when absent. */
    deliveryTimeoutSeconds?: number;
    /** Accept body fields no operation documents, as partners who send extra fields on purpose need (`--allow-unknown-fields`); refused with 400 when absent. */
    allowUnknownFields?: boolean;
    /** Keep the whole state in this file across restarts (`--state`); missing folders are created. Its saved key and token win over `authKey` and `accessToken`. */
    state?: string;
    /** Called with each webhook the sandbox emits (and its JSON text, which is what is signed), whether or not a `webhookUrl` is set. */
    onWebhook?: (event: WebhookEvent, body: string) => void;
    /** Called with one line for each webhook delivery that failed (event, address, status or error, when it is retried); written to stderr (`console.warn` by the fetch handler) when absent. */
    onDeliveryFailure?: (line: string) => void;
}
export interface RunningSandbox {
    /**
     * The base URL every client of the package takes (`createPartnerClient`,
     * `createV2Client`, `createSandboxClient`): the partner API is at `/`, the v2
     * API at `/v2`, the control API at `/_sandbox`, each path as its document writes it.
     */
    url: string;
    /** The partner's active `X-Auth-Key` (after a restart with `state`, the one active when it stopped). */
    authKey: string;
    /** The v2 bearer token. */
    accessToken: string;
    /** Stops listening, stops webhook retries and closes the state file. */
    close(): Promise<void>;
}
/**
 * Starts the stateful sandbox in this process. Use one per test file (or
 * `POST /_sandbox/reset` between tests) and close it when done.
 *
 * ```ts
 * const sandbox = await startSandbox();
 * const partner = createPartnerClient({ baseUrl: sandbox.url, authKey: sandbox.authKey });
 * const control = createSandboxClient({ baseUrl: sandbox.url });
 * await sandbox.close();
 * ```
 */
export declare function startSandbox(options?: StartSandboxOptions): Promise<RunningSandbox>;
