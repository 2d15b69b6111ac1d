import type { StartSandboxOptions } from './in-process.js';
/** The options of `startSandbox` that need no port or file, and three of a fetch handler's own. */
export interface SandboxFetchOptions extends Omit<StartSandboxOptions, 'port' | 'state'> {
    /** Sends each webhook (the global `fetch` when absent): give a handler to receive them in-process. */
    fetch?: (request: Request) => Promise<Response>;
    /** The time the sandbox clock starts from (real time when absent); the control API moves it forward. */
    now?: () => Date;
    /**
     * The base URL a verification's `url` (the end user's page) carries, and
     * the home page names; `http://sandbox.localhost` when absent. The sandbox
     * answers a request to any host.
     */
    url?: string;
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
