// The local sandbox's fetch handler behind a port, with a hook that may
// change each answer: a deployment that departs from the contract in one
// chosen way, for the conformance runner to judge over HTTP.
import { createServer } from 'node:http';
import { buffer } from 'node:stream/consumers';
import { onTestFinished } from 'vitest';
import { createSandboxFetch, type SandboxFetch } from '../../src/sandbox/fetch.js';

/** Given the request and the local sandbox's answer, the answer to send instead (`Response.error()`: the connection is dropped). */
export type Departure = (request: Request, answer: () => Promise<Response>) => Promise<Response>;

export interface ProxiedSandbox {
  url: string;
  sandbox: SandboxFetch;
}

/** A seeded local sandbox on a loopback port, each answer passed through `depart`, closed when the test ends. */
export async function sandboxDeparting(authKey: string, depart: Departure): Promise<ProxiedSandbox> {
  // Webhooks go to the seeded partner's address, which does not answer: not what these tests judge.
  const sandbox = await createSandboxFetch({ authKey, onDeliveryFailure: () => undefined });
  const seeded = await sandbox.fetch(
    new Request('http://sandbox.localhost/_sandbox/seed', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    }),
  );
  if (seeded.status !== 200) throw new Error(`seeding the local sandbox answered ${seeded.status}`);
  const server = createServer(async (req, res) => {
    const body = await buffer(req);
    const headers = Object.entries(req.headers).filter((h): h is [string, string] => typeof h[1] === 'string');
    const init = { method: req.method, headers, body: body.length ? body : undefined };
    const request = new Request(`http://sandbox.localhost${req.url}`, init);
    const answer = await depart(request.clone(), () => sandbox.fetch(request));
    if (answer.type === 'error') {
      res.socket?.destroy();
      return;
    }
    res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(await answer.text());
  });
  // As the sandbox's own server: a socket the client reuses after a pause under load must still be open.
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        sandbox.close();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, sandbox };
}
