// A webhook receiver on a free loopback port that answers 200 to every
// request and keeps each body as text, in arrival order: for tests that
// count and compare what a sandbox delivered.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startBodyReceiver(): Promise<{ url: string; bodies: string[]; close(): void }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req
      .on('data', (chunk) => (body += chunk))
      .on('end', () => {
        bodies.push(body);
        res.writeHead(200).end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return { url, bodies, close: () => server.close() };
}
