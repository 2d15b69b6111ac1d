// Error bodies in the shape each document declares.
import type { Violation } from '../../contract/routes.js';
import { orElse } from './door.js';

export type ApiName = 'v2' | 'partner' | 'sandbox';

export const MALFORMED_TARGET: Violation = {
  field: 'path',
  reasonCode: 'MALFORMED',
  params: { message: 'is not a valid request target: send the path and query alone, the host in Host' },
};

const V2_CODES: Record<number, [string, string]> = {
  400: ['VALIDATION_ERROR', 'Input data is invalid. Please check the details.'],
  401: ['UNAUTHORIZED_ERROR', 'Unauthorized'],
  403: ['FORBIDDEN_ERROR', 'Forbidden'],
  404: ['NOT_FOUND_ERROR', 'Not found'],
  413: ['PAYLOAD_TOO_LARGE_ERROR', 'Request body is larger than 1 MiB'],
  414: ['URI_TOO_LONG_ERROR', 'Request target is too long'],
  415: ['UNSUPPORTED_MEDIA_TYPE_ERROR', 'Content-Type must be application/json'],
  500: ['INTERNAL_ERROR', 'Internal error'],
};

const describe = (v: Violation) => {
  if (v.reasonCode === 'REQUIRED')
    return `${v.field} is required${v.field === 'body' ? ': a JSON object, {} when no field is needed' : ''}`;
  // v2 lists them in `details[].params.allowedValues`; the partner's message is all a client gets.
  if (v.reasonCode === 'ENUM' && Array.isArray(v.params.allowedValues))
    return `${v.field} must be one of ${v.params.allowedValues.join(', ')}`;
  // An operation that takes no fields (NoFields): say what to send instead.
  if (v.reasonCode === 'MAX_PROPERTIES' && v.params.limit === 0)
    return `${v.field} must be {} or left out: this operation takes no fields`;
  return `${v.field} ${typeof v.params.message === 'string' ? v.params.message : v.reasonCode.toLowerCase()}`;
};

export function errorBody(
  api: ApiName,
  status: number,
  message?: string,
  violations: Violation[] = [],
): Record<string, unknown> {
  if (api === 'v2') {
    const [code, documented] = V2_CODES[status] ?? [`HTTP_${status}_ERROR`, 'Error'];
    // The documented statuses keep the documented text; the others say what went wrong.
    const text = [400, 401, 404].includes(status) ? documented : (message ?? documented);
    const body = { statusCode: status, code, message: text };
    return status === 400
      ? { ...body, details: violations.map(({ field, reasonCode, params }) => ({ field, reasonCode, params })) }
      : body;
  }
  const text = violations.length ? violations.map(describe).join('; ') : (message ?? V2_CODES[status]?.[1] ?? 'Error');
  return { statusCode: status, message: text };
}

/** Which API a URL belongs to, for answers outside any route, by its path decoded as the router matches it (`/%762/…` is `/v2/…`). */
export function apiOf(url: string): ApiName {
  const raw = url.split('?')[0];
  const path = orElse(() => decodeURIComponent(raw), raw);
  return path.startsWith('/v2/') || path === '/v2' ? 'v2' : path.startsWith('/_sandbox') ? 'sandbox' : 'partner';
}
