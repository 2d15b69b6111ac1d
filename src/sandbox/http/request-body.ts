// What a request must send as its Content-Type, and how its body is read:
// JSON in UTF-8 only, uncompressed, at most 1 MiB. Any other media type
// (`text/plain` too) is refused 415, and so are a Content-Encoding other than
// identity and a charset other than UTF-8 rather than decoded into different
// text (S17); a Content-Type given twice, and a body that is not UTF-8 or not
// JSON, or has `__proto__` or `constructor.prototype` keys, is a 400.
//
// The partner document lists `Content-Type: application/json` among the
// "Headers on every call", not only on calls with a body, and common clients
// (hey-api's and orval's fetch clients, axios in a browser) leave it out of a
// GET unless told to: the local sandbox refuses a partner call without it
// (S51), so a client that drops it fails here, not first against the
// service. The v2 document asks for no such header. A control request other
// than GET must send it too, with or without a body: a cross-origin page
// cannot send it without CORS consent (control-guard.ts).
import contentType from 'content-type';
import secureJsonParse from 'secure-json-parse';
import type { Violation } from '../../contract/routes.js';
import { orElse, strictUtf8Text, type DoorRequest } from './door.js';
import type { ApiName } from './error-bodies.js';
import { jsonMistake } from './json-position.js';

const BODY_LIMIT = 1024 * 1024;

export type BodyResult =
  | { ok: true; body: unknown }
  /** `close`: the connection is closed after the answer (the client may still be sending). */
  | { ok: false; status: 400 | 413 | 415; message?: string; violations?: Violation[]; close: boolean };

const TOO_LARGE: BodyResult = { ok: false, status: 413, message: 'request body is larger than 1 MiB', close: true };
const refused = (reasonCode: string, message: string, more?: Record<string, unknown>): BodyResult => ({
  ok: false,
  status: 400,
  violations: [{ field: 'body', reasonCode, params: { message, ...more } }],
  close: true,
});

/**
 * A Content-Type as the content-type library reads it: the lower-cased
 * `type/subtype`, undefined when there is none, and the parameters,
 * undefined when they are malformed (which leaves the type standing).
 */
function readContentType(header: string | undefined): { type?: string; parameters?: Record<string, string> } {
  if (header === undefined) return {};
  const withoutParameters = () => ({ type: contentType.parse(header.split(';')[0]).type });
  return orElse(() => contentType.parse(header), undefined) ?? orElse(withoutParameters, {});
}

/**
 * Why a request is refused for giving Content-Type more than once, or
 * undefined. Both doors see two headers as one joined by `, ` (door.ts), and
 * no media type has a comma outside a quoted parameter: one such comma is
 * two types, and the sandbox does not guess which one the body is.
 */
export function contentTypeTwice(header: (name: string) => string | undefined): Violation | undefined {
  const type = header('content-type');
  if (type === undefined || !type.replace(/"(?:[^"\\]|\\.)*"/g, '').includes(',')) return undefined;
  return {
    field: 'Content-Type',
    reasonCode: 'DUPLICATE',
    params: { message: `is given more than once (${type}); send one Content-Type header: application/json` },
  };
}

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
  // Given twice, it is refused as a call with a body is, whatever the two say.
  const twice = contentTypeTwice(header);
  if (twice) return twice;
  if (readContentType(sent).type === 'application/json') return undefined;
  return {
    field: 'Content-Type',
    reasonCode: 'NOT_JSON',
    params: { message: `is ${sent}, not application/json: ${WHAT_TO_SEND}` },
  };
}

/** Why a control request other than GET is refused for its type (415), or undefined when it may proceed. */
export function controlContentTypeRefusal(header: (name: string) => string | undefined): string | undefined {
  const type = header('content-type');
  // Its parameters well-formed too (a body's reader takes the type alone).
  const { type: media, parameters } = readContentType(type);
  if (media === 'application/json' && parameters) return undefined;
  return `control requests other than GET must send Content-Type: application/json (a body is optional where the operation takes none), not ${type ?? 'none'}`;
}

/** Why a body's Content-Encoding is refused, or undefined for none or identity. */
function encodingRefusal(header: (name: string) => string | undefined): BodyResult | undefined {
  const encoding = header('content-encoding')?.trim().toLowerCase();
  if (encoding === undefined || encoding === '' || encoding === 'identity') return undefined;
  return {
    ok: false,
    status: 415,
    message: `Content-Encoding must be identity, not ${encoding}: the sandbox takes uncompressed bodies; send the JSON as it is, without Content-Encoding`,
    close: false,
  };
}

/**
 * The body's JSON, refusing `__proto__` and `constructor.prototype` keys with
 * secure-json-parse only where the text could spell one (plainly, or with a
 * `\u` escape): most bodies cannot, and skip its scans.
 */
function parseJson(text: string): BodyResult {
  try {
    const suspect = text.includes('\\') || text.includes('__proto__') || text.includes('constructor');
    return {
      ok: true,
      body: suspect ? secureJsonParse(text, { protoAction: 'error', constructorAction: 'error' }) : JSON.parse(text),
    };
  } catch (err) {
    // secure-json-parse refuses a prototype key in JSON that is otherwise valid.
    if ((err as Error).message === 'Object contains forbidden prototype property') {
      return refused(
        'FORBIDDEN_KEY',
        'has a "__proto__" key, or a "constructor" key holding "prototype", which is refused (such keys can change every object a body is merged into); rename or remove it',
      );
    }
    // Where it stops being JSON, so the client can find its mistake.
    const mistake = jsonMistake(text);
    if (!mistake) return refused('INVALID_JSON', 'is not valid JSON');
    const { what, position, line, column } = mistake;
    return refused(
      'INVALID_JSON',
      `is not valid JSON: ${what} at line ${line}, column ${column} (offset ${position})`,
      { position, line, column },
    );
  }
}

/**
 * The JSON body of a request (not GET or HEAD) to an operation of `api`,
 * undefined when it sends none, or why it is refused, unread when the headers
 * tell. Rejects when the connection breaks before the body is complete.
 */
export async function readJsonBody(req: DoorRequest, api: ApiName): Promise<BodyResult> {
  const header = req.header('content-type');
  if (header === undefined && !req.hasBody) return { ok: true, body: undefined };
  const encoded = encodingRefusal(req.header);
  if (encoded) return encoded;
  const { type, parameters } = readContentType(header);
  if (type !== 'application/json') {
    return {
      ok: false,
      status: 415,
      message: `Content-Type must be application/json, not ${header ?? 'missing'}`,
      close: false,
    };
  }
  if (Number(req.header('content-length')) > BODY_LIMIT) return TOO_LARGE;
  const raw = await req.body(BODY_LIMIT);
  if (raw === undefined) return TOO_LARGE;
  const charset = parameters?.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return { ok: false, status: 415, message: `Content-Type charset must be utf-8, not ${charset}`, close: true };
  }
  // Refused rather than stored with U+FFFD where the bytes were.
  const decoded = strictUtf8Text(raw);
  if ('invalidAt' in decoded)
    return refused('INVALID_UTF8', `is not valid UTF-8: invalid byte at offset ${decoded.invalidAt}`, {
      offset: decoded.invalidAt,
    });
  // Control requests must send the JSON type (control-guard.ts) even where
  // the operation takes no body, so an empty one is no body there.
  if (decoded.text === '') return api === 'sandbox' ? { ok: true, body: undefined } : refused('REQUIRED', 'is empty');
  return parseJson(decoded.text);
}
