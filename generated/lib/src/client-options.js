/**
 * Checks what a caller passed and builds openapi-fetch options with one
 * credential header. Throws a TypeError naming the option at fault, so a
 * misconfigured client fails at construction rather than on first request.
 */
export function clientOptions(factory, options, credential) {
    if (typeof options?.baseUrl !== 'string' || !/^https?:\/\/[^/]/.test(options.baseUrl)) {
        throw new TypeError(`${factory}: baseUrl must be an http(s) URL such as "http://127.0.0.1:4010"`);
    }
    if (typeof credential.value !== 'string' || credential.value.trim() === '') {
        throw new TypeError(`${factory}: ${credential.option} must be a non-empty string`);
    }
    return {
        baseUrl: options.baseUrl.replace(/\/+$/, ''),
        ...(options.fetch ? { fetch: options.fetch } : {}),
        headers: { ...options.headers, [credential.header]: credential.format(credential.value) },
        // Repeated array parameters (`statuses=A&statuses=B`) unless a parameter
        // of the document says otherwise; set here so it does not hang on the
        // library's default.
        querySerializer: { array: { style: 'form', explode: true } },
    };
}
