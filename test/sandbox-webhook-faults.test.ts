// Delivery worse on purpose, as the service may deliver (`webhookFaults`),
// and `POST /_sandbox/webhooks/{eventId}/resend`. Through createSandboxFetch
// with an in-process receiver: the faults live in the core both doors share
// (over a port: sandbox-cli's --webhook-faults).
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createPartnerClient } from '../src/partner.js';
import { createSandboxClient } from '../src/sandbox-client.js';
import { DELAY_MS } from '../src/sandbox/common/webhook-faults.js';
import { createSandboxFetch, type SandboxFetch, type SandboxFetchOptions } from '../src/sandbox/fetch.js';
import { startSandbox } from '../src/sandbox/in-process.js';

const BASE = 'https://api.example.test';
const WEBHOOK_URL = 'https://partner.example/webhooks';

/** A sandbox whose webhooks reach an in-process receiver answering 200, with what arrived and what was emitted (with when). */
async function sandboxWithReceiver(options: SandboxFetchOptions = {}) {
  const arrivals: { body: string; eventId: string; signature: string; at: number }[] = [];
  const emitted: { eventId: string; at: number }[] = [];
  const sandbox = await createSandboxFetch({
    webhookUrl: WEBHOOK_URL,
    onDeliveryFailure: () => undefined,
    onWebhook: (event) => emitted.push({ eventId: event.eventId, at: performance.now() }),
    fetch: async (request) => {
      const body = await request.text();
      arrivals.push({
        body,
        eventId: JSON.parse(body).eventId,
        signature: request.headers.get('x-signature') ?? '',
        at: performance.now(),
      });
      return new Response(null, { status: 200 });
    },
    ...options,
  });
  opened.push(sandbox);
  const partner = () => createPartnerClient({ baseUrl: BASE, authKey: sandbox.authKey, fetch: sandbox.fetch });
  const control = createSandboxClient({ baseUrl: BASE, fetch: sandbox.fetch });
  const createAndOpen = async () => {
    const { data } = await partner().POST('/verifications', {
      body: { externalUserId: crypto.randomUUID(), redirectUrl: 'https://partner.example/done' },
    });
    await control.POST('/_sandbox/verifications/{verificationId}/open', {
      params: { path: { verificationId: data!.id } },
    });
    return data!.id;
  };
  /** Resolves once `count` webhooks arrived; a generous bound, as the machine may be loaded. */
  const arrived = (count: number) =>
    expect.poll(() => arrivals.length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(count);
  return { sandbox, arrivals, emitted, partner, control, createAndOpen, arrived };
}

const opened: SandboxFetch[] = [];
afterEach(() => {
  for (const sandbox of opened.splice(0)) sandbox.close();
});

const sign = (body: string, key: string) => createHmac('sha256', key).update(body).digest('hex');

describe('webhookFaults', () => {
  it('duplicate: every event arrives twice, the same signed bytes and eventId', async () => {
    const { sandbox, arrivals, emitted, createAndOpen, arrived } = await sandboxWithReceiver({
      webhookFaults: ['duplicate'],
    });
    await createAndOpen();
    expect(emitted).toHaveLength(2); // verification.created, then verification.updated (started)
    await arrived(4);
    for (const { eventId } of emitted) {
      const copies = arrivals.filter((a) => a.eventId === eventId);
      expect(copies).toHaveLength(2);
      expect(copies[0].body).toBe(copies[1].body);
      expect(copies.map((c) => c.signature)).toEqual([
        sign(copies[0].body, sandbox.authKey),
        sign(copies[0].body, sandbox.authKey),
      ]);
    }
  });

  it('reorder: a batch arrives in another order than generated, each event once', async () => {
    const { emitted, arrivals, createAndOpen, arrived } = await sandboxWithReceiver({ webhookFaults: ['reorder'] });
    // Five verifications created and opened within the 1 s window: ten events in one batch.
    await Promise.all(Array.from({ length: 5 }, createAndOpen));
    await arrived(10);
    expect(arrivals.map((a) => a.eventId).sort()).toEqual(emitted.map((e) => e.eventId).sort());
    expect(arrivals.map((a) => a.eventId)).not.toEqual(emitted.map((e) => e.eventId));
  });

  it(`delay: no event arrives sooner than ${DELAY_MS / 1000} s after it was emitted`, async () => {
    const { emitted, arrivals, createAndOpen, arrived } = await sandboxWithReceiver({ webhookFaults: ['delay'] });
    await createAndOpen();
    await arrived(2);
    for (const arrival of arrivals) {
      const emittedAt = emitted.find((e) => e.eventId === arrival.eventId)!.at;
      expect(arrival.at - emittedAt).toBeGreaterThanOrEqual(DELAY_MS - 50);
    }
  });

  it('is refused, naming the faults, when a name is not one (both doors)', async () => {
    for (const start of [createSandboxFetch, startSandbox]) {
      await expect(start({ webhookFaults: ['duplicated' as never] })).rejects.toThrow(/duplicate, reorder, delay/);
      await expect(start({ webhookFaults: 'duplicate' as never })).rejects.toThrow(/webhookFaults/);
    }
  });
});

describe('POST /_sandbox/webhooks/{eventId}/resend', () => {
  it('delivers a past event again, the same body and eventId, signed with the key active now, and answers 202 saying what and where', async () => {
    const { sandbox, arrivals, emitted, partner, control, createAndOpen, arrived } = await sandboxWithReceiver();
    await createAndOpen();
    await arrived(2);
    const first = arrivals.find((a) => a.eventId === emitted[0].eventId)!;
    const oldKey = sandbox.authKey;
    const rotated = await partner().POST('/auth-keys', { body: {} });
    expect(rotated.response.status).toBe(201);
    expect(sandbox.authKey).not.toBe(oldKey);

    const { data, response } = await control.POST('/_sandbox/webhooks/{eventId}/resend', {
      params: { path: { eventId: first.eventId } },
    });
    expect(response.status).toBe(202);
    expect(data).toEqual({ eventId: first.eventId, eventType: 'verification.created', webhookUrl: WEBHOOK_URL });
    await arrived(3);
    const again = arrivals[2];
    expect(again.body).toBe(first.body);
    expect(again.signature).toBe(sign(first.body, sandbox.authKey));
    expect(again.signature).not.toBe(sign(first.body, oldKey));
  });

  it('answers 404 for an eventId no webhook has, naming where the sent ones are listed', async () => {
    const { control } = await sandboxWithReceiver();
    const { error, response } = await control.POST('/_sandbox/webhooks/{eventId}/resend', {
      params: { path: { eventId: 'no-such-event' } },
    });
    expect(response.status).toBe(404);
    expect(error?.message).toContain('GET /verifications/{verificationId}/webhooks');
  });

  it('answers 409 when no webhookUrl is set, saying how to set one, and sends nothing', async () => {
    const { control, createAndOpen, emitted, arrivals } = await sandboxWithReceiver({ webhookUrl: undefined });
    await createAndOpen();
    const { error, response } = await control.POST('/_sandbox/webhooks/{eventId}/resend', {
      params: { path: { eventId: emitted[0].eventId } },
    });
    expect(response.status).toBe(409);
    expect(error?.message).toContain('PUT /partners');
    expect(arrivals).toEqual([]);
  });
});
