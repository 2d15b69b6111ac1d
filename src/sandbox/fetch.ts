// The sandbox as a fetch handler (`@verification-service/contracts/sandbox/fetch`):
// the same core as the server (core.ts), answering a Web `Request` with a
// Web `Response` and opening no port, for tests where no port can be
// opened or where opening one is the slow part: MSW, Cloudflare Workers,
// browser test runners, service workers. It imports no Node module: the
// documents and the request validators come compiled with the package.
import { documents, homepage, requestValidators } from '../../generated/validators/sandbox-contract.js';
import type { WebhookEvent } from '../webhooks/events.js';
import { checkSharedOptions } from './common/option-checks.js';
import { createSandboxCore } from './core.js';
import type { DoorAnswer, DoorRequest } from './http/door.js';

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

const fail = (what: string) => {
  throw new TypeError(`createSandboxFetch: ${what}`);
};

/**
 * The stateful sandbox as a fetch handler, with no port. One per test file
 * (or `POST /_sandbox/reset` between tests).
 *
 * ```ts
 * const sandbox = await createSandboxFetch();
 * const partner = createPartnerClient({ baseUrl: 'https://api.example.test', authKey: sandbox.authKey, fetch: sandbox.fetch });
 * ```
 */
export async function createSandboxFetch(options: SandboxFetchOptions = {}): Promise<SandboxFetch> {
  const { retryIntervalSeconds, deliveryTimeoutSeconds, webhookUrl, url = 'http://sandbox.localhost' } = options;
  checkSharedOptions('createSandboxFetch', options);
  if (!/^https?:\/\/[^/]+$/.test(url.replace(/\/+$/, ''))) fail(`url must be an http:// or https:// origin such as "http://sandbox.localhost", not ${JSON.stringify(url)}`);
  for (const name of ['fetch', 'now', 'onWebhook', 'onDeliveryFailure'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') fail(`${name} must be a function when given`);
  }
  const core = createSandboxCore({
    url: url.replace(/\/+$/, ''),
    authKey: options.authKey,
    accessToken: options.accessToken,
    documents,
    precompiled: requestValidators,
    homepage,
    webhookUrl,
    retryIntervalMs: retryIntervalSeconds === undefined ? undefined : retryIntervalSeconds * 1000,
    deliveryTimeoutMs: deliveryTimeoutSeconds === undefined ? undefined : deliveryTimeoutSeconds * 1000,
    allowUnknownFields: options.allowUnknownFields,
    fetch: options.fetch,
    onWebhook: options.onWebhook,
    onDeliveryFailure: options.onDeliveryFailure ?? ((line) => console.warn(line)),
    clock: options.now,
  });
  return {
    fetch: async (request) => {
      // By shape, not instanceof: a test environment (happy-dom, a polyfill) may bring a Request class of its own.
      if (typeof request?.url !== 'string' || typeof request.method !== 'string' || typeof request.arrayBuffer !== 'function' || typeof request.headers?.get !== 'function') {
        fail('fetch takes a Request (as MSW and Workers hand it over); for a URL and options, pass new Request(url, init)');
      }
      const answer = await core.answer(doorRequest(request));
      // A body that broke off mid-way has no one to answer; a fetch handler still answers.
      return answer ? toResponse(request, answer) : Response.error();
    },
    get authKey() {
      return core.authKey();
    },
    accessToken: core.accessToken,
    url: url.replace(/\/+$/, ''),
    close: () => core.delivery.close(),
  };
}

function doorRequest(request: Request): DoorRequest {
  const address = new URL(request.url);
  return {
    method: request.method,
    target: address.pathname + address.search,
    origin: address.origin,
    header: (name) => request.headers.get(name) ?? undefined,
    hasBody: request.body !== null,
    body: async (limit) => {
      const bytes = new Uint8Array(await request.arrayBuffer());
      return bytes.length > limit ? undefined : bytes;
    },
  };
}

function toResponse(request: Request, { status, headers, body }: DoorAnswer): Response {
  const empty = request.method === 'HEAD' || status === 204 || status === 304 || body === undefined;
  return new Response(empty ? null : body, { status, headers });
}
