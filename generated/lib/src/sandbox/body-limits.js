/** Nesting levels of objects and arrays below a body field; the documents' bodies need fewer than 8. */
export const MAX_DEPTH = 32;
/** Bytes of one free-form field as JSON; the partner's largest metadata (50 keys of 540 characters) is about 28 KB. */
export const MAX_FREE_FORM_BYTES = 64 * 1024;
/** Whether a value nests objects or arrays more than `limit` levels (iterative: no stack to overflow). */
function deeperThan(value, limit) {
    const stack = [[value, 1]];
    while (stack.length) {
        const [node, depth] = stack.pop();
        if (node === null || typeof node !== 'object')
            continue;
        if (depth > limit)
            return true;
        for (const child of Object.values(node))
            if (child !== null && typeof child === 'object')
                stack.push([child, depth + 1]);
    }
    return false;
}
/**
 * Violations of the bounds, one per offending top-level field of the body,
 * named like the validator names fields (`body.metadata`).
 */
export function bodyLimitViolations(body, freeFormFields) {
    if (body === null || typeof body !== 'object')
        return [];
    const violations = [];
    for (const [key, value] of Object.entries(body)) {
        const field = `body.${key}`;
        if (deeperThan(value, MAX_DEPTH)) {
            violations.push({ field, reasonCode: 'MAX_DEPTH', params: { limit: MAX_DEPTH, message: `is nested deeper than ${MAX_DEPTH} levels` } });
        }
        else if (freeFormFields.has(key) && Buffer.byteLength(JSON.stringify(value)) > MAX_FREE_FORM_BYTES) {
            violations.push({ field, reasonCode: 'MAX_SIZE', params: { limit: MAX_FREE_FORM_BYTES, message: `is larger than ${MAX_FREE_FORM_BYTES} bytes as JSON` } });
        }
    }
    return violations;
}
