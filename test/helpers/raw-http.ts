// One HTTP/1.1 request written to a socket byte for byte, for what a client
// library would tidy away: a header given twice, a Host it would not send. The
// request asks for the connection to close, so the answer ends with it.
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Lower-case names; a name sent twice keeps its last value. */
  headers: Record<string, string>;
  body: string;
}

/** Sends `head` (request line and headers, no blank line) and `body` to 127.0.0.1:`port`; resolves with the answer. */
export function rawRequest(port: number, head: string[], body: string | Uint8Array = ''): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) });
    });
    const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
    // A method that may carry a body says its length, even 0; GET and HEAD say none unless they send one.
    const sendsLength = bytes.length > 0 || !/^(GET|HEAD) /.test(head[0]);
    const length = sendsLength ? [`Content-Length: ${bytes.length}`] : [];
    socket.end(
      Buffer.concat([Buffer.from(`${[...head, ...length, 'Connection: close'].join('\r\n')}\r\n\r\n`), bytes]),
    );
  });
}
