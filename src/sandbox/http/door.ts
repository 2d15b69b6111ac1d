// What the core takes and gives, free of any runtime's HTTP types: each door
// turns its requests into a DoorRequest and writes the DoorAnswer back.
export interface DoorRequest {
  method: string;
  /** The request target in origin form: the path and query as sent. */
  target: string;
  /** The origin the client addressed (`http://127.0.0.1:4020`), which the end user's page accepts forms from. */
  origin: string;
  /** A header by its lower-case name; several of one name joined by `, `. */
  header(name: string): string | undefined;
  /** Whether the request announces a body (Content-Length above 0, or chunked). */
  hasBody: boolean;
  /** The body's bytes, or undefined once past `limit` (the rest left unread); rejects when the connection breaks first. */
  body(limit: number): Promise<Uint8Array | undefined>;
}

export interface DoorAnswer {
  status: number;
  headers: Record<string, string>;
  /** Left out of an answer to HEAD by the door. */
  body?: string;
  /** The connection is closed after the answer (the client may still be sending). */
  close?: boolean;
}

const encoder = new TextEncoder();

export const utf8Length = (text: string) => encoder.encode(text).length;

/** A JSON answer; nosniff, so a browser never reads it as anything but the JSON it is. */
export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): DoorAnswer {
  if (body === undefined)
    return { status, headers: status === 204 || status === 304 ? headers : { ...headers, 'content-length': '0' } };
  const text = JSON.stringify(body);
  return {
    status,
    headers: {
      ...headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(utf8Length(text)),
      'x-content-type-options': 'nosniff',
    },
    body: text,
  };
}

/** What `fn` gives, or `fallback` when it throws (a text that does not percent-decode, a header that does not parse). */
export function orElse<T, F>(fn: () => T, fallback: F): T | F {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
/** The text of UTF-8 bytes, a byte order mark kept as the character it is. */
export const utf8Text = (bytes: Uint8Array) => decoder.decode(bytes);

/** The text of UTF-8 bytes, or when they are not UTF-8 the offset of the first byte outside a well-formed sequence (the lead byte of one cut short). */
export function strictUtf8Text(bytes: Uint8Array): { text: string } | { invalidAt: number } {
  const text = utf8Text(bytes);
  if (!text.includes('\uFFFD')) return { text };
  // The decoder puts a U+FFFD where each ill-formed sequence starts (WHATWG Encoding). Encoded again, the text
  // first departs from the bytes inside that U+FFFD's EF BF BD, unless every one was sent as such.
  const again = encoder.encode(text);
  let i = 0;
  while (i < bytes.length && bytes[i] === again[i]) i++;
  return i === again.length ? { text } : { invalidAt: i - [0xef, 0xbf, 0xbd].indexOf(again[i]) };
}
