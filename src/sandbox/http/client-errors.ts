// Requests Node's HTTP parser refuses before they are requests, answered on
// the socket in the error shape of the API the target belongs to: a request
// line or headers over the limit (431), a request that is not well-formed
// HTTP (400 that says so: a bad chunk size, Content-Length with
// Transfer-Encoding, a body cut short, an invalid target), and a client too
// slow to finish its headers or its request (408, S17).
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { apiOf, errorBody, MALFORMED_TARGET } from './error-bodies.js';

// llhttp's reasons are terse; these say what the client got wrong.
const FRAMING_REASONS: Record<string, string> = {
  HPE_INVALID_CHUNK_SIZE: 'a chunk size of the chunked body is not a hexadecimal number',
  HPE_INVALID_EOF_STATE:
    'the connection ended before the body announced by Content-Length or chunked framing was complete',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length is given more than once, or together with Transfer-Encoding',
};

function answer(
  err: Error & { code?: string; reason?: string; rawPacket?: unknown },
): [number, Record<string, unknown>] {
  const target = Buffer.isBuffer(err.rawPacket) ? (err.rawPacket.toString('latin1').split(' ')[1] ?? '') : '';
  const api = apiOf(target);
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return [431, errorBody(api, 431, 'request line or headers are larger than the sandbox accepts (16 KiB)')];
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return [
      408,
      errorBody(
        api,
        408,
        'the request was not complete in time; the sandbox closes connections that send their headers or body too slowly',
      ),
    ];
  }
  if (err.code === 'HPE_INVALID_URL') return [400, errorBody(api, 400, undefined, [MALFORMED_TARGET])];
  const why = FRAMING_REASONS[err.code ?? ''] ?? `${err.reason ?? err.message} (${err.code ?? 'unknown parser error'})`;
  return [
    400,
    errorBody(api, 400, undefined, [
      { field: 'request', reasonCode: 'MALFORMED_HTTP', params: { message: `is not well-formed HTTP/1.1: ${why}` } },
    ]),
  ];
}

/** The server's `clientError` listener: answers and closes the connection. */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // A connection reset or closed by the client has no one to answer.
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, body] = answer(err);
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
