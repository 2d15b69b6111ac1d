// How a request's body is read: JSON in UTF-8 only, uncompressed, at most 1 MiB; another media type, encoding or
// charset is refused rather than decoded into different text (S17), and each API's Content-Type rule (S51).
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
const unsupported = (message: string, close: boolean): BodyResult => ({ ok: false, status: 415, message, close });
const refused = (reasonCode: string, message: string, more?: Record<string, unknown>): BodyResult => ({
  ok: false,
  status: 400,
  violations: [{ field: 'body', reasonCode, params: { message, ...more } }],
  close: true,
});

/** The lower-cased `type/subtype` and its parameters (undefined when malformed, which leaves the type standing). */
function readContentType(header: string | undefined): { type?: string; parameters?: Record<string, string> } {
  if (header === undefined) return {};
  const withoutParameters = () => ({ type: contentType.parse(header.split(';')[0]).type });
  return orElse(() => contentType.parse(header), undefined) ?? orElse(withoutParameters, {});
}

/**
 * Why a request is refused for giving Content-Type twice: both doors join two
 * headers by `, `, and no media type has a comma outside a quoted parameter.
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
  return `control requests other than GET must send Content-Type: application/json (a body is optional where the operation takes none); ${type ?? 'no Content-Type'} was sent`;
}

/** Why a body's Content-Encoding is refused, or undefined for none or identity. */
function encodingRefusal(header: (name: string) => string | undefined): BodyResult | undefined {
  const encoding = header('content-encoding')?.trim().toLowerCase();
  if (encoding === undefined || encoding === '' || encoding === 'identity') return undefined;
  return unsupported(
    `Content-Encoding must be identity, not ${encoding}: the sandbox takes uncompressed bodies; send the JSON as it is, without Content-Encoding`,
    false,
  );
}

/** The body's JSON, scanned for prototype keys by secure-json-parse only where the text could spell one (plainly or with a `\u` escape). */
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

/** The JSON body of a request (not GET or HEAD), undefined when it sends none, or why it is refused; rejects when the connection breaks first. */
export async function readJsonBody(req: DoorRequest, api: ApiName): Promise<BodyResult> {
  const header = req.header('content-type');
  if (header === undefined && !req.hasBody) return { ok: true, body: undefined };
  const encoded = encodingRefusal(req.header);
  if (encoded) return encoded;
  const { type, parameters } = readContentType(header);
  if (type !== 'application/json')
    return unsupported(`Content-Type must be application/json; ${header ?? 'no Content-Type'} was sent`, false);
  if (Number(req.header('content-length')) > BODY_LIMIT) return TOO_LARGE;
  const raw = await req.body(BODY_LIMIT);
  if (raw === undefined) return TOO_LARGE;
  const charset = parameters?.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
    return unsupported(`Content-Type charset must be utf-8, not ${charset}`, true);
  // Refused rather than stored with U+FFFD where the bytes were.
  const decoded = strictUtf8Text(raw);
  if ('invalidAt' in decoded)
    return refused('INVALID_UTF8', `is not valid UTF-8: invalid byte at offset ${decoded.invalidAt}`, {
      offset: decoded.invalidAt,
    });
  // Control requests send the JSON type even where the operation takes no body: an empty one is no body there.
  if (decoded.text === '') return api === 'sandbox' ? { ok: true, body: undefined } : refused('REQUIRED', 'is empty');
  return parseJson(decoded.text);
}
