// The local sandbox as a strict writer (src/contract/strict-answers.ts): an
// answer or a webhook carrying a field its document does not name is never
// sent. The answer is a 500 that blames the sandbox, not the caller, naming
// the field and the operation; the breach is logged (and, on the node:http
// door, kept with the violations), so the test that provoked it fails. A field
// is planted where the story that motivated the check put one: a view cast
// to the documented type (partner/views.ts), through every door in Node, and
// through the core's handler seam in each of the three APIs.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { documents, homepage, requestValidators } from '../generated/validators/sandbox-contract.js';
import { createSandboxCore } from '../src/sandbox/core.js';
import { createSandboxFetch } from '../src/sandbox/fetch.js';
import type { DoorRequest } from '../src/sandbox/http/door.js';
import { startSandbox } from '../src/sandbox/in-process.js';
import { serveSandbox } from '../src/sandbox/server.js';

const plant = vi.hoisted(() => ({ answer: false, webhook: false }));

vi.mock('../src/sandbox/partner/views.js', async (importOriginal) => {
  const views = await importOriginal<typeof import('../src/sandbox/partner/views.js')>();
  const withField = <T extends object>(value: T, on: boolean) =>
    on ? { ...value, errorRedirectURL: 'https://app.example/failed' } : value;
  return {
    ...views,
    createdVerificationView: (v: Parameters<typeof views.createdVerificationView>[0]) =>
      withField(views.createdVerificationView(v), plant.answer),
    verificationEventData: (v: Parameters<typeof views.verificationEventData>[0]) =>
      withField(views.verificationEventData(v), plant.webhook),
  };
});

const CREATE = JSON.stringify({
  externalUserId: '5e9c3b7a-2d4f-4e18-b6a0-9f1c8e3d7b24',
  redirectUrl: 'https://app.example/done',
});

const closers: (() => unknown)[] = [];
afterEach(async () => {
  plant.answer = false;
  plant.webhook = false;
  vi.restoreAllMocks();
  for (const close of closers.splice(0)) await close();
});

/** A sandbox behind one door: how to create a verification through it, the webhooks it emitted, and its violations where the door keeps them. */
interface Door {
  create(): Promise<{ status: number; body: any }>;
  emitted: string[];
  violations?: string[];
}

/** The `onWebhook` option, recording each emitted webhook's type: every door takes it. */
const recording = () => {
  const emitted: string[] = [];
  return { emitted, onWebhook: (event: { eventType: string }) => emitted.push(event.eventType) };
};

async function overPort(url: string, authKey: () => string) {
  const res = await fetch(`${url}/verifications`, {
    method: 'POST',
    headers: { 'x-auth-key': authKey(), 'content-type': 'application/json' },
    body: CREATE,
  });
  return { status: res.status, body: await res.json() };
}

const DOORS: Record<string, () => Promise<Door>> = {
  'the node:http door (serveSandbox)': async () => {
    const { emitted, onWebhook } = recording();
    const sandbox = await serveSandbox({ port: 0, onWebhook });
    closers.push(() => sandbox.close());
    return { create: () => overPort(sandbox.url, () => sandbox.authKey), emitted, violations: sandbox.violations };
  },
  startSandbox: async () => {
    const { emitted, onWebhook } = recording();
    const sandbox = await startSandbox({ onWebhook });
    closers.push(() => sandbox.close());
    return { create: () => overPort(sandbox.url, () => sandbox.authKey), emitted };
  },
  'the fetch handler (createSandboxFetch)': async () => {
    const { emitted, onWebhook } = recording();
    const sandbox = await createSandboxFetch({ onWebhook });
    closers.push(() => sandbox.close());
    const create = async () => {
      const res = await sandbox.fetch(
        new Request(`${sandbox.url}/verifications`, {
          method: 'POST',
          headers: { 'x-auth-key': sandbox.authKey, 'content-type': 'application/json' },
          body: CREATE,
        }),
      );
      return { status: res.status, body: await res.json() };
    };
    return { create, emitted };
  },
};

describe.each(Object.keys(DOORS))('through %s', (door) => {
  it('an answer carrying a field its document does not name is a 500 blaming the sandbox, naming the field', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const sandbox = await DOORS[door]();
    expect((await sandbox.create()).status).toBe(201);
    plant.answer = true;
    const { status, body } = await sandbox.create();
    expect(status).toBe(500);
    expect(body.statusCode).toBe(500);
    for (const part of ['answer.errorRedirectURL', 'createVerification', 'bug of the local sandbox'])
      expect(body.message).toContain(part);
    expect(logged).toHaveBeenCalledWith(body.message);
    if (sandbox.violations) expect(sandbox.violations).toContain(body.message);
  });

  it('a webhook carrying one is never sent, and the request that emitted it answers 500', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const sandbox = await DOORS[door]();
    plant.webhook = true;
    const { status, body } = await sandbox.create();
    expect(status).toBe(500);
    for (const part of ['webhook.data.errorRedirectURL', 'verification.created', 'bug of the local sandbox'])
      expect(body.message).toContain(part);
    expect(logged).toHaveBeenCalledWith(body.message);
    expect(sandbox.emitted).not.toContain('verification.created');
    // The same webhook without the planted field goes out.
    plant.webhook = false;
    expect((await sandbox.create()).status).toBe(201);
    expect(sandbox.emitted.filter((type) => type === 'verification.created')).toHaveLength(1);
  });
});

describe('in each API, the control API included', () => {
  const PLANTED = {
    partner: ['GET', '/partners', 'getPartner'],
    v2: ['GET', '/v2/verifications/', 'listVerifications'],
    sandbox: ['GET', '/_sandbox/clock', 'getClock'],
  } as const;

  it.each(Object.entries(PLANTED))(
    '%s: a planted field in an answer is a 500 in that API’s error shape',
    async (api, [method, target, operationId]) => {
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const core = createSandboxCore({
        url: 'http://sandbox.test',
        documents,
        precompiled: requestValidators,
        homepage,
        onDeliveryFailure: () => undefined,
        // The seam the server's faults use: every handler's answer gains a field no document names.
        wrap: (route, handle) => ({
          route,
          handle: (req) => {
            const [status, body] = handle(req);
            return [status, { ...(body as object), plantedField: true }];
          },
        }),
      });
      closers.push(() => core.delivery.close());
      const request: DoorRequest = {
        method,
        target,
        origin: 'http://sandbox.test',
        header: (name) => ({ 'x-auth-key': core.authKey(), authorization: `Bearer ${core.accessToken}` })[name],
        hasBody: false,
        body: async () => new Uint8Array(),
      };
      const answer = await core.answer(request);
      expect(answer?.status).toBe(500);
      const body = JSON.parse(answer?.body ?? '{}');
      if (api === 'v2') expect(body.code).toBe('INTERNAL_ERROR');
      expect(body.message).toContain('answer.plantedField');
      expect(body.message).toContain(operationId);
      expect(core.violations).toContain(body.message);
    },
  );
});
