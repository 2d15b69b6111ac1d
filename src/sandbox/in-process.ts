// The sandbox for a partner's own test suite (`@verification-service/contracts/sandbox`):
// the same server the `sandbox` command starts, started in-process with the
// command's options, answering with where it listens and the credentials it
// accepts, and a way to wait for the webhooks it emits. Only plain types
// cross this boundary, so the published declarations name nothing of the
// sandbox's insides.
import type { WebhookEvent } from '../webhooks/events.js';
import { EmittedWebhooks } from './common/emitted-webhooks.js';
import { checkSharedOptions } from './common/option-checks.js';
import type { WebhookFaultName } from './common/webhook-faults.js';
import { serveSandbox } from './server.js';

export interface WaitForWebhookOptions {
  /** Milliseconds before the wait rejects; 3,000 when absent (under vitest's 5 s test timeout, so the wait says why first). */
  timeoutMs?: number;
}

/**
 * Delivery made worse on purpose, as the service may deliver (`--webhook-faults`):
 * `duplicate` delivers each webhook twice (the same body and `eventId`),
 * `reorder` holds webhooks for 1 s and sends each batch in a shuffled order,
 * `delay` holds each delivery attempt 3 s.
 */
export type WebhookFault = 'duplicate' | 'reorder' | 'delay';
// Declared above for the published declarations; tsc fails here when it and the delivery's own list part.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<WebhookFault, WebhookFaultName>;

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
  /** Deliver webhooks as badly as the service may, so a receiver's tests meet it (`--webhook-faults`); none when absent. */
  webhookFaults?: WebhookFault[];
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
  /** The partner's active `X-Auth-Key`, as it is now: `POST /auth-keys` rotates it (after a restart with `state`, the one active when it stopped). */
  readonly authKey: string;
  /** The v2 bearer token. */
  accessToken: string;
  /**
   * Resolves with the first webhook emitted that `predicate` matches, as its
   * body was signed, with no `webhookUrl` needed: the last 1,000 emitted
   * before the call count, across `POST /_sandbox/reset` too (match on your
   * test's own ids). Rejects after `timeoutMs` (3,000 when absent) naming
   * what was emitted instead, and when the sandbox closes.
   *
   * ```ts
   * const done = await sandbox.waitForWebhook((e) => e.eventType === 'verification.updated' && e.data.status === 'completed');
   * ```
   */
  waitForWebhook<T extends WebhookEvent>(predicate: (event: WebhookEvent) => event is T, options?: WaitForWebhookOptions): Promise<T>;
  waitForWebhook(predicate: (event: WebhookEvent) => boolean, options?: WaitForWebhookOptions): Promise<WebhookEvent>;
  /** Stops listening, stops webhook retries, closes the state file and rejects the waits still pending. */
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
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const { port = 0, state } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError(`startSandbox: port must be a whole number from 0 to 65535, not ${port}`);
  checkSharedOptions('startSandbox', options, ['onWebhook', 'onDeliveryFailure']);
  if (state !== undefined && (typeof state !== 'string' || state.trim() === '')) throw new TypeError('startSandbox: state must be a non-empty string when given');
  // Only the documented options: the server's own (faults, timeouts) stay the command's and the tests'.
  const { authKey, accessToken, webhookUrl, retryIntervalSeconds, deliveryTimeoutSeconds, allowUnknownFields, webhookFaults, onDeliveryFailure } = options;
  const emitted = new EmittedWebhooks<WebhookEvent>();
  const onWebhook = emitted.listener(options.onWebhook);
  const sandbox = await serveSandbox({
    port,
    authKey,
    accessToken,
    webhookUrl,
    retryIntervalSeconds,
    deliveryTimeoutSeconds,
    allowUnknownFields,
    webhookFaults,
    state,
    onWebhook,
    onDeliveryFailure,
  });
  return {
    url: sandbox.url,
    // Read at each use: a rotation through the partner API changes it.
    get authKey() {
      return sandbox.partner.activeAuthKey();
    },
    accessToken: sandbox.accessToken,
    waitForWebhook: emitted.waitFor,
    close: () => {
      emitted.close();
      return sandbox.close();
    },
  };
}
