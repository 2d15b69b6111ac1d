const V2_CODES = {
    400: ['VALIDATION_ERROR', 'Input data is invalid. Please check the details.'],
    401: ['UNAUTHORIZED_ERROR', 'Unauthorized'],
    404: ['NOT_FOUND_ERROR', 'Not found'],
    413: ['PAYLOAD_TOO_LARGE_ERROR', 'Request body is larger than 1 MiB'],
    415: ['UNSUPPORTED_MEDIA_TYPE_ERROR', 'Content-Type must be application/json'],
    500: ['INTERNAL_ERROR', 'Internal error'],
};
const describe = (v) => {
    const why = typeof v.params.message === 'string' ? v.params.message : v.reasonCode.toLowerCase();
    return v.reasonCode === 'REQUIRED' ? `${v.field} is required` : `${v.field} ${why}`;
};
/** The body of an error answer of one API. */
export function errorBody(api, status, message, violations = []) {
    if (api === 'v2') {
        const [code, text] = V2_CODES[status] ?? [`HTTP_${status}_ERROR`, message ?? 'Error'];
        return status === 400
            ? { statusCode: 400, code, message: text, details: violations.map(({ field, reasonCode, params }) => ({ field, reasonCode, params })) }
            : { statusCode: status, code, message: text };
    }
    const text = violations.length ? violations.map(describe).join('; ') : (message ?? V2_CODES[status]?.[1] ?? 'Error');
    return { statusCode: status, message: text };
}
/** Which API a URL belongs to, for answers outside any route. */
export function apiOf(url) {
    if (url.startsWith('/v2/') || url === '/v2')
        return 'v2';
    if (url.startsWith('/_sandbox'))
        return 'sandbox';
    return 'partner';
}
