// The options every client of the package takes (v2, partner, sandbox control), checked
// when a client is made: a wrong option fails there, naming itself, not on the first call.
import type { ClientOptions } from 'openapi-fetch';
import { isWebAddress } from './web-address.js';

/** Options every client of the package takes. */
export interface BaseClientOptions {
  /** Scheme, host and optional port of the service, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** A fetch implementation; defaults to the global `fetch`. */
  fetch?: (input: Request) => Promise<Response>;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** Checks what a caller passed and builds openapi-fetch options with one credential header (a TypeError names a wrong option). */
export function clientOptions(
  factory: string,
  options: BaseClientOptions,
  credential: { option: string; value: unknown; header: string; format: (value: string) => string },
  /** How array query parameters are written: openapi-fetch applies one style to a whole client. */
  arrays: { style: 'form'; explode: boolean },
  /** Where this API's address comes from: the sandbox's printed variable and the local mock's port. */
  address: { variable: string; mockPort: number },
  fixedHeaders: Record<string, string> = {},
): ClientOptions {
  if (typeof options?.baseUrl !== 'string' || !isWebAddress(options.baseUrl)) {
    // Most often an unset variable: name the one the sandbox prints, and this API's mock.
    throw new TypeError(
      `${factory}: baseUrl must be an http(s) URL, not ${JSON.stringify(options?.baseUrl) ?? 'undefined'}: the sandbox's address (it prints ${address.variable}=…), ` +
        `"http://127.0.0.1:${address.mockPort}" for this API's mock, or the service's address`,
    );
  }
  if (typeof credential.value !== 'string' || credential.value.trim() === '')
    throw new TypeError(`${factory}: ${credential.option} must be a non-empty string`);
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: { ...options.headers, ...fixedHeaders, [credential.header]: credential.format(credential.value) },
    querySerializer: { array: arrays },
  };
}
