// A node:http sandbox and a fetch handler made with the same key and token,
// and one request sent to both as sent by a client that tidies nothing: on a
// socket byte for byte (rawRequest), and as a Request whose headers keep a
// name given twice.
import { createSandboxFetch, type SandboxFetch } from '../../src/sandbox/fetch.js';
import { serveSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { rawRequest, type RawAnswer } from './raw-http.js';

export type Header = [string, string];

/** The base URL the fetch handler is asked at. */
export const FETCH_BASE = 'http://sandbox.localhost';

export interface TwoDoors {
  server: Sandbox;
  port: number;
  handler: SandboxFetch;
  /** The answers of the node:http door and of the fetch handler, in that order. */
  send(method: string, target: string, headers: Header[], body?: string | Uint8Array): Promise<[RawAnswer, RawAnswer]>;
  close(): Promise<void>;
}

/** A body as bytes, undefined when empty: a string would make Request add `Content-Type: text/plain`, which the socket never sends. */
const bytesOf = (body: string | Uint8Array): BodyInit | undefined =>
  body.length === 0 ? undefined : typeof body === 'string' ? new TextEncoder().encode(body) : new Uint8Array(body);

export async function openTwoDoors(authKey: string, accessToken: string): Promise<TwoDoors> {
  const same = { onDeliveryFailure: () => undefined, authKey, accessToken };
  const server = await serveSandbox({ port: 0, validateResponses: true, ...same });
  const port = Number(new URL(server.url).port);
  const handler = await createSandboxFetch(same);
  return {
    server,
    port,
    handler,
    async send(method, target, headers, body = '') {
      const lines = headers.map(([name, value]) => `${name}: ${value}`);
      const viaPort = await rawRequest(
        port,
        [`${method} ${target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...lines],
        body,
      );
      const sent = new Headers();
      for (const [name, value] of headers) sent.append(name, value);
      const res = await handler.fetch(
        new Request(`${FETCH_BASE}${target}`, { method, headers: sent, body: bytesOf(body) }),
      );
      return [viaPort, { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() }];
    },
    close: async () => {
      handler.close();
      await server.close();
    },
  };
}
