/**
 * Checks what a caller passed and builds openapi-fetch options with one
 * credential header. Throws a TypeError naming the option at fault, so a
 * misconfigured client fails at construction rather than on first request.
 */
export function clientOptions(factory, options, credential, 
/**
 * How array query parameters are written. openapi-fetch applies one style
 * to every parameter of a client, so each client passes the style its
 * document declares for all of its array parameters.
 */
arrays, fixedHeaders = {}) {
    if (typeof options?.baseUrl !== 'string' || !/^https?:\/\/[^/]/.test(options.baseUrl)) {
        throw new TypeError(`${factory}: baseUrl must be an http(s) URL such as "http://127.0.0.1:4010"`);
    }
    if (typeof credential.value !== 'string' || credential.value.trim() === '') {
        throw new TypeError(`${factory}: ${credential.option} must be a non-empty string`);
    }
    return {
        baseUrl: options.baseUrl.replace(/\/+$/, ''),
        ...(options.fetch ? { fetch: options.fetch } : {}),
        headers: { ...options.headers, ...fixedHeaders, [credential.header]: credential.format(credential.value) },
        querySerializer: { array: arrays },
    };
}
