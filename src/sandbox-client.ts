// @verification-service/contracts/sandbox: `startSandbox` and a typed client of the control API.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../generated/types/sandbox.js';
import type { BaseClientOptions } from './client-options.js';
import { isWebAddress } from './web-address.js';

export type { paths, components, operations } from '../generated/types/sandbox.js';
export { startSandbox, type RunningSandbox, type StartSandboxOptions } from './sandbox/in-process.js';

/** Options of the control API client: no credential, it answers only this machine. */
export type SandboxClientOptions = BaseClientOptions;

/** A typed client of the sandbox control API. */
export type SandboxClient = Client<paths>;

/**
 * Creates an openapi-fetch client of the sandbox control API: act as the end
 * user or the reviewer, move the clock, seed and reset. Every call carries
 * `Content-Type: application/json`, which the control API asks of every
 * POST, also those that take no body.
 *
 * ```ts
 * const control = createSandboxClient({ baseUrl: sandbox.url });
 * await control.POST('/_sandbox/verifications/{verificationId}/open', { params: { path: { verificationId } } });
 * await control.POST('/_sandbox/verifications/{verificationId}/scan', { params: { path: { verificationId } }, body: { outcome: 'pass' } });
 * ```
 */
export function createSandboxClient(options: SandboxClientOptions): SandboxClient {
  const baseUrl = options?.baseUrl;
  if (typeof baseUrl !== 'string' || !isWebAddress(baseUrl)) {
    throw new TypeError(
      'createSandboxClient: baseUrl must be the sandbox URL, such as "http://127.0.0.1:4020" (the url startSandbox returns, or SANDBOX_URL as the command prints it)',
    );
  }
  if (/\/(_sandbox|v2)\/*$/.test(baseUrl)) {
    throw new TypeError(
      `createSandboxClient: baseUrl ${JSON.stringify(baseUrl)} ends in a path; give the sandbox URL without it (the paths start with /_sandbox)`,
    );
  }
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: { ...options.headers, 'Content-Type': 'application/json' },
  });
}
