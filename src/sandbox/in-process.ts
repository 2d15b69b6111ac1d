// `startSandbox` (`@verification-service/contracts/sandbox`): the command's server in a partner's test suite. Only
// plain types cross this boundary, so the published declarations name nothing of the sandbox's insides.
import type { WebhookEvent } from '../webhooks/events.js';
import { checkOptions, LISTEN_RULES, pickSettings, type ListenSettings, type SandboxSettings } from './options.js';
import { serveSandbox } from './server.js';

export interface WaitForWebhookOptions {
  /** Milliseconds before the wait rejects; 3,000 when absent (under vitest's 5 s test timeout, so the wait says why first). */
  timeoutMs?: number;
}

/** The options the `sandbox` command takes, under their names in code (`retryIntervalSeconds` for `--retry-interval`). */
export interface StartSandboxOptions extends SandboxSettings, ListenSettings {}

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
  waitForWebhook<T extends WebhookEvent>(
    predicate: (event: WebhookEvent) => event is T,
    options?: WaitForWebhookOptions,
  ): Promise<T>;
  waitForWebhook(predicate: (event: WebhookEvent) => boolean, options?: WaitForWebhookOptions): Promise<WebhookEvent>;
  /**
   * Resolves with the first webhook that `predicate` matches once your
   * receiver (at the partner's `webhookUrl`) answered 200 to it and the
   * sandbox recorded the delivery, so your receiver has the event: a wait
   * for an event your receiver processes. Deliveries answered 200 before the
   * call count (the last 1,000 events attempted, across
   * `POST /_sandbox/reset` too). Rejects after `timeoutMs` (3,000 when
   * absent) naming the matching deliveries attempted and what the receiver
   * answered each (or that none was attempted), and when the sandbox closes.
   *
   * ```ts
   * await sandbox.waitForDelivery((e) => e.eventType === 'verification.updated' && e.data.verificationId === id);
   * ```
   */
  waitForDelivery<T extends WebhookEvent>(
    predicate: (event: WebhookEvent) => event is T,
    options?: WaitForWebhookOptions,
  ): Promise<T>;
  waitForDelivery(predicate: (event: WebhookEvent) => boolean, options?: WaitForWebhookOptions): Promise<WebhookEvent>;
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
  checkOptions('startSandbox', options, LISTEN_RULES);
  // Only the documented options: the server's own (faults, timeouts) stay the command's and the tests'.
  const sandbox = await serveSandbox({
    ...pickSettings(options),
    port: options.port ?? 0,
    host: options.host,
    state: options.state,
  });
  return {
    url: sandbox.url,
    // Read at each use: a rotation through the partner API changes it.
    get authKey() {
      return sandbox.partner.activeAuthKey();
    },
    accessToken: sandbox.accessToken,
    waitForWebhook: sandbox.waitForWebhook,
    waitForDelivery: sandbox.waitForDelivery,
    close: sandbox.close,
  };
}
