import type { ClientOptions } from 'openapi-fetch';
/** Options every client of the package takes. */
export interface BaseClientOptions {
    /** Scheme, host and optional port of the service, e.g. `https://api.example.com`. */
    baseUrl: string;
    /** A fetch implementation; defaults to the global `fetch`. */
    fetch?: (input: Request) => Promise<Response>;
    /** Extra headers sent with every request. */
    headers?: Record<string, string>;
}
/**
 * Checks what a caller passed and builds openapi-fetch options with one
 * credential header. Throws a TypeError naming the option at fault, so a
 * misconfigured client fails at construction rather than on first request.
 */
export declare function clientOptions(factory: string, options: BaseClientOptions, credential: {
    option: string;
    value: unknown;
    header: string;
    format: (value: string) => string;
}, 
/**
 * How array query parameters are written. openapi-fetch applies one style
 * to every parameter of a client, so each client passes the style its
 * document declares for all of its array parameters.
 */
arrays: {
    style: 'form';
    explode: boolean;
}, 
/** Where this API's address comes from: the sandbox's printed variable and the local mock's port. */
address: {
    variable: string;
    mockPort: number;
}, fixedHeaders?: Record<string, string>): ClientOptions;
