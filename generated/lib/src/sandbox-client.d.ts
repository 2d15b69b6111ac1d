import { type Client } from 'openapi-fetch';
import type { paths } from '../generated/types/sandbox.js';
import type { BaseClientOptions } from './client-options.js';
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
export declare function createSandboxClient(options: SandboxClientOptions): SandboxClient;
