// `waitForDelivery` through both in-process doors (`startSandbox` on a port,
// `createSandboxFetch` with none): it resolves once the receiver answered
// 200, not when the sandbox emits (a receiver that answers 500 first, then
// 200 after the sandbox clock passes the retry), and rejects at its timeout
// naming the attempts and what the receiver answered, or that none was
// attempted because no webhookUrl was set.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPartnerClient } from '../src/partner.js';
import { createSandboxClient } from '../src/sandbox-client.js';
import { createSandboxFetch } from '../src/sandbox/fetch.js';
import { startSandbox, type RunningSandbox } from '../src/sandbox/in-process.js';

/** A wait that should resolve: generous, as the machine may be loaded, and under the test timeout so a failed wait says why. */
const GENEROUS = { timeoutMs: 30_000 };

/** A receiver whose answer the test sets, counting what it was sent. */
interface Receiver {
  status: number;
  received: number;
}

interface Door {
  sandbox: Pick<RunningSandbox, 'waitForWebhook' | 'waitForDelivery' | 'authKey'>;
  baseUrl: string;
  fetch?: (request: Request) => Promise<Response>;
  /** The delivery failures the sandbox reported. */
  failures: string[];
  close(): Promise<void> | void;
}

type Open = (receiver: Receiver | undefined) => Promise<Door>;

const doors: [string, Open][] = [
  [
    'startSandbox (on a port)',
    async (receiver) => {
      const failures: string[] = [];
      const server = createServer((req, res) => {
        req.resume().on('end', () => {
          receiver!.received += 1;
          res.writeHead(receiver!.status).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
      const sandbox = await startSandbox({
        ...(receiver ? { webhookUrl } : {}),
        onDeliveryFailure: (line) => failures.push(line),
      });
      return {
        sandbox,
        baseUrl: sandbox.url,
        failures,
        close: async () => {
          await sandbox.close();
          server.close();
        },
      };
    },
  ],
  [
    'createSandboxFetch (no port)',
    async (receiver) => {
      const failures: string[] = [];
      const sandbox = await createSandboxFetch({
        ...(receiver ? { webhookUrl: 'https://partner.example.test/webhooks' } : {}),
        fetch: async (request) => {
          await request.arrayBuffer();
          receiver!.received += 1;
          return new Response(null, { status: receiver!.status });
        },
        onDeliveryFailure: (line) => failures.push(line),
      });
      return { sandbox, baseUrl: 'https://api.example.test', fetch: sandbox.fetch, failures, close: sandbox.close };
    },
  ],
];

describe.each(doors)('waitForDelivery, %s', (_name, open) => {
  let door: Door | undefined;
  afterEach(() => door?.close());
  /** Opens the door, closed after the test. */
  const opened = async (receiver: Receiver | undefined) => {
    door = await open(receiver);
    return door;
  };

  const clients = (d: Door) => ({
    partner: createPartnerClient({
      baseUrl: d.baseUrl,
      authKey: d.sandbox.authKey,
      ...(d.fetch && { fetch: d.fetch }),
    }),
    control: createSandboxClient({ baseUrl: d.baseUrl, ...(d.fetch && { fetch: d.fetch }) }),
  });
  const createVerification = async (d: Door) => {
    const { data, response } = await clients(d).partner.POST('/verifications', {
      body: { externalUserId: crypto.randomUUID(), redirectUrl: 'https://partner.example/done' },
    });
    expect(response.status).toBe(201);
    return data!.id;
  };
  const isCreated = (verificationId: string) => (e: { eventType: string; data: object }) =>
    e.eventType === 'verification.created' && (e.data as { verificationId?: string }).verificationId === verificationId;

  it('resolves once the receiver answered 200 after a 500, not when the webhook was emitted', async () => {
    const receiver = { status: 500, received: 0 };
    const d = await opened(receiver);
    const verificationId = await createVerification(d);
    await d.sandbox.waitForWebhook(isCreated(verificationId), GENEROUS);
    let delivered = false;
    const delivery = d.sandbox.waitForDelivery(isCreated(verificationId), GENEROUS);
    void delivery.then(() => (delivered = true));
    // The first attempt was answered 500 and recorded as failed: the event was emitted, not delivered.
    await expect
      .poll(() => d.failures.some((line) => line.includes('answered 500')), { timeout: GENEROUS.timeoutMs })
      .toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(delivered).toBe(false);

    receiver.status = 200;
    const advanced = await clients(d).control.POST('/_sandbox/clock/advance', { body: { minutes: 16 } });
    expect(advanced.response.status).toBe(200);
    const event = await delivery;
    expect(event).toMatchObject({ eventType: 'verification.created', data: { verificationId } });
    expect(receiver.received).toBe(2);
    // The delivery is recorded by the time the wait resolves: the history says it succeeded.
    const history = await clients(d).partner.GET('/verifications/{verificationId}/webhooks', {
      params: { path: { verificationId } },
    });
    expect(history.data?.webhooks.find((w) => w.payload.eventType === 'verification.created')?.success).toBe(true);
    // Delivered before the call counts: a later wait resolves at once.
    await expect(d.sandbox.waitForDelivery(isCreated(verificationId), { timeoutMs: 1 })).resolves.toEqual(event);
  });

  it('rejects at its timeout naming the failed attempts, the address and what the receiver answered', async () => {
    const receiver = { status: 503, received: 0 };
    const d = await opened(receiver);
    const verificationId = await createVerification(d);
    await expect.poll(() => d.failures.length, { timeout: GENEROUS.timeoutMs }).toBeGreaterThan(0);
    const wait = d.sandbox.waitForDelivery(isCreated(verificationId), { timeoutMs: 50 });
    await expect(wait).rejects.toThrow(
      /^waitForDelivery: waited for a webhook matching .* to be answered 200 by the receiver, but none was answered 200 within 50 ms; the matching deliveries attempted, none answered 200: verification\.created \S+ to \S+\/webhooks: the webhook address answered 503; retried at \S+ \(sandbox time\)\. /,
    );
    await expect(wait).rejects.toThrow(/that your receiver answers 200 .*POST \/_sandbox\/clock\/advance/);
  });

  it('rejects saying no delivery was attempted when no webhookUrl is set, though the webhook was emitted', async () => {
    const d = await opened(undefined);
    const verificationId = await createVerification(d);
    await d.sandbox.waitForWebhook(isCreated(verificationId), GENEROUS);
    await expect(d.sandbox.waitForDelivery(isCreated(verificationId), { timeoutMs: 50 })).rejects.toThrow(
      /but none was answered 200 within 50 ms; 1 matching was emitted, and no delivery of it was attempted \(no webhookUrl was set/,
    );
  });
});
