// The sandbox as a fetch handler (`@verification-service/contracts/sandbox/fetch`) for tests where no port can be
// opened (MSW, Workers, browser test runners); it imports no Node module.
import { documents, homepage, requestValidators } from '../../generated/validators/sandbox-contract.js';
import { isWebAddress } from '../web-address.js';
import { createSandboxCore } from './core.js';
import type { DoorAnswer, DoorRequest } from './http/door.js';
import type { RunningSandbox } from './in-process.js';
import { aFunction, checkOptions, pickSettings, type OptionRule, type SandboxSettings } from './options.js';

export type { WaitForWebhookOptions } from './in-process.js';
export type { WebhookFault } from './options.js';

/** The options of `startSandbox` that need no port or file, and three of a fetch handler's own. */
export interface SandboxFetchOptions extends SandboxSettings {
  /** Sends each webhook (the global `fetch` when absent): give a handler to receive them in-process. */
  fetch?: (request: Request) => Promise<Response>;
  /** The time the sandbox clock starts from (real time when absent); the control API moves it forward. */
  now?: () => Date;
  /**
   * The base URL a verification's `url` (the end user's page) carries, and
   * the home page names; `http://sandbox.localhost` when absent. The sandbox
   * answers a request to any host, unless `allowedHosts` is given: then only
   * those names, this one's and this machine's.
   */
  url?: string;
}

/** What `startSandbox` gives (its `url` is the base URL of verification `url`s here), answering through `fetch`. */
export interface SandboxFetch extends Omit<RunningSandbox, 'close'> {
  /** Answers a request to the partner API, v2 (`/v2/…`), the control API (`/_sandbox/…`) or an end user's page, at any base URL. */
  fetch(request: Request): Promise<Response>;
  /** Stops webhook retries and rejects the waits still pending. */
  close(): void;
}

/** An http:// or https:// origin: no path, not even `/` (the trailing ones are dropped before). */
const originRule: OptionRule = (value, name) =>
  typeof value === 'string' && isWebAddress(value) && !/^[^:]+:\/\/[^/]+\//.test(value)
    ? undefined
    : `${name} must be an http:// or https:// origin such as "http://sandbox.localhost", not ${JSON.stringify(value)}`;

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
  const given = options.url ?? 'http://sandbox.localhost';
  // Trailing slashes dropped: a verification's url appends its path.
  const url = typeof given === 'string' ? given.replace(/\/+$/, '') : given;
  checkOptions('createSandboxFetch', { ...options, url }, { fetch: aFunction, now: aFunction, url: originRule });
  const core = createSandboxCore({
    // Only the declared options and this door's own: `port` given here by untyped code changes nothing.
    ...pickSettings(options),
    fetch: options.fetch,
    now: options.now,
    url,
    documents,
    precompiled: requestValidators,
    homepage,
    onDeliveryFailure: options.onDeliveryFailure ?? ((line) => console.warn(line)),
    // A Worker serving it is reached by any page: with allowedHosts, only those names reach the rest, on any port.
    hostGuard:
      options.allowedHosts === undefined
        ? undefined
        : { howToAllow: (name) => `create the handler with createSandboxFetch({ allowedHosts: ['${name}'] })` },
  });
  return {
    fetch: async (request) => {
      // By shape, not instanceof: a test environment (happy-dom, a polyfill) may bring a Request class of its own.
      if (
        typeof request?.url !== 'string' ||
        typeof request.method !== 'string' ||
        typeof request.arrayBuffer !== 'function' ||
        typeof request.headers?.get !== 'function'
      ) {
        throw new TypeError(
          'createSandboxFetch: fetch takes a Request (as MSW and Workers hand it over); for a URL and options, pass new Request(url, init)',
        );
      }
      const answer = await core.answer(doorRequest(request));
      // A body that broke off mid-way has no one to answer; a fetch handler still answers.
      return answer ? toResponse(request, answer) : Response.error();
    },
    get authKey() {
      return core.authKey();
    },
    accessToken: core.accessToken,
    url,
    waitForWebhook: core.waitForWebhook,
    waitForDelivery: core.waitForDelivery,
    close: core.close,
  };
}

function doorRequest(request: Request): DoorRequest {
  const address = new URL(request.url);
  return {
    method: request.method,
    target: address.pathname + address.search,
    origin: address.origin,
    // The URL's host stands for Host (the guard's): a browser's Request carries none, and a Worker's URL is built from it.
    header: (name) => (name === 'host' ? address.host : (request.headers.get(name) ?? undefined)),
    hasBody: request.body !== null,
    body: (limit) => readBody(request, limit),
  };
}

/**
 * The body, or undefined once it passes `limit` bytes: a stream is cancelled
 * there, so a body far over the limit costs at most the limit and one chunk.
 */
async function readBody(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (typeof request.body?.getReader !== 'function') {
    const whole = new Uint8Array(await request.arrayBuffer());
    return whole.length > limit ? undefined : whole;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      // The rest is left unread; a source that fails to cancel changes nothing for the answer.
      reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return new Uint8Array(await new Blob(chunks).arrayBuffer());
}

function toResponse(request: Request, { status, headers, body }: DoorAnswer): Response {
  const empty = request.method === 'HEAD' || status === 204 || status === 304 || body === undefined;
  return new Response(empty ? null : body, { status, headers });
}
