// The partner document lists `Content-Type: application/json` among the
// "Headers on every call", not only on calls with a body, and common clients
// (hey-api's and orval's fetch clients, axios in a browser) leave it out of a
// GET unless told to. The local sandbox refuses a partner call without it
// (S51), so a client that drops it fails here, not first against the
// service. Parameters (`; charset=utf-8`) are accepted. A body of another
// type keeps its 415 (request-body.ts, S17). The v2 document asks for no such
// header, and the control API and the end user's page are the sandbox's own
// (control-guard.ts has the control API's rule).
import type { Violation } from '../../contract/routes.js';
import type { DoorRequest } from './door.js';
import { contentTypeTwice, readContentType } from './request-body.js';

const WHAT_TO_SEND =
  'the partner API takes Content-Type: application/json on every call, GET and calls without a body too; send that header';

/** Why a partner call is refused for its Content-Type before its body is read, or undefined. */
export function partnerContentTypeRefusal({ method, header, hasBody }: DoorRequest): Violation | undefined {
  const sent = header('content-type');
  if (sent === undefined)
    return { field: 'Content-Type', reasonCode: 'MISSING_HEADER', params: { message: `is missing: ${WHAT_TO_SEND}` } };
  // A body the request sends is judged by its reader, which answers another type with 415.
  const bodiless = method === 'GET' || method === 'HEAD' || !hasBody;
  if (!bodiless) return undefined;
  // Given twice, it is refused as a call with a body is (request-body.ts), whatever the two say.
  const twice = contentTypeTwice(header);
  if (twice) return twice;
  if (readContentType(sent).type === 'application/json') return undefined;
  return {
    field: 'Content-Type',
    reasonCode: 'NOT_JSON',
    params: { message: `is ${sent}, not application/json: ${WHAT_TO_SEND}` },
  };
}
