// The local sandbox as a strict writer (src/contract/strict-answers.ts): a
// field no document names, planted where a sandbox bug would put it, is never
// sent; the answer is a 500 that blames the sandbox, logged and kept with the
// violations so the test that provoked it fails.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandboxFetch } from '../src/sandbox/fetch.js';
import { serveSandbox } from '../src/sandbox/server.js';
import { fetchCalls, send } from './helpers/served-sandbox.js';
import { askCore, sandboxCore } from './helpers/wrapped-core.js';

const PLANTED = '"errorRedirectURL":"https://app.example/failed"';
const PHONE = '+4915112345678';
const createBody = (extra: object = {}) =>
  JSON.stringify({
    externalUserId: '5e9c3b7a-2d4f-4e18-b6a0-9f1c8e3d7b24',
    redirectUrl: 'https://app.example/done',
    phoneNumbers: [{ phoneNumber: PHONE, isVerified: false }],
    ...extra,
  });

const closers: (() => unknown)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  // Last opened, first closed: a sandbox with --state writes its file as it stops.
  for (const close of closers.splice(0).reverse()) await close();
});

/** Silences the breach the sandbox logs, and gives what it logged. */
const breachLog = () => vi.spyOn(console, 'error').mockImplementation(() => undefined);

describe('a stored record, through the node:http door', () => {
  it('a webhook carrying a field its document does not name is never sent, and the request that emitted it answers 500', async () => {
    const logged = breachLog();
    const folder = mkdtempSync(path.join(os.tmpdir(), 'sandbox-strict-'));
    closers.push(() => rmSync(folder, { recursive: true, force: true }));
    const state = path.join(folder, 'state.jsonl');
    const first = await serveSandbox({ port: 0, state });
    const created = await send(first.url, first.authKey, 'POST', '/verifications', createBody());
    expect(created.status).toBe(201);
    await first.close();
    // Planted in the one verification's stored phone number, as a sandbox bug would have stored it.
    writeFileSync(state, readFileSync(state, 'utf8').replace('"isVerified":false}', `"isVerified":false,${PLANTED}}`));
    const emitted: string[] = [];
    const door = await serveSandbox({ port: 0, state, onWebhook: (e) => emitted.push(e.eventType) });
    closers.push(() => door.close());
    const open = `/_sandbox/verifications/${created.body.id}/open`;
    const { status, body } = await send(door.url, door.authKey, 'POST', open, '{}');
    expect(status).toBe(500);
    const parts = ['webhook.data.phoneNumbers.0.errorRedirectURL', 'verification.updated', 'bug of the local sandbox'];
    for (const part of parts) expect(body.message).toContain(part);
    expect(logged).toHaveBeenCalledWith(body.message);
    expect(emitted).toEqual([]);
  });
});

describe('the core both doors share, as the fetch door builds it, in each API (the control API included)', () => {
  const OPERATIONS = {
    partner: ['GET', '/partners', 'getPartner'],
    v2: ['GET', '/v2/verifications/', 'listVerifications'],
    sandbox: ['GET', '/_sandbox/clock', 'getClock'],
  } as const;

  it.each(Object.entries(OPERATIONS))(
    '%s: a planted field is a 500 in that API’s error shape',
    async (api, [method, target, operationId]) => {
      const logged = breachLog();
      // Every handler's answer gains a field no document names.
      const core = sandboxCore({
        wrap: (route, handle) => ({
          route,
          handle: (req) => {
            const [status, body] = handle(req);
            return [status, { ...(body as object), plantedField: true }];
          },
        }),
      });
      closers.push(() => core.delivery.close());
      const answer = await askCore(core, method, target);
      expect(answer?.status).toBe(500);
      const body = JSON.parse(answer?.body ?? '{}');
      if (api === 'v2') expect(body.code).toBe('INTERNAL_ERROR');
      expect(body.message).toContain('answer.plantedField');
      expect(body.message).toContain(operationId);
      expect(core.violations).toContain(body.message);
      expect(logged).toHaveBeenCalledWith(body.message);
    },
  );
});

describe('with allowUnknownFields, through the fetch handler', () => {
  it('a field no document names is accepted and ignored: no answer or webhook carries it', async () => {
    const logged = breachLog();
    const webhooks: string[] = [];
    const sandbox = await createSandboxFetch({
      allowUnknownFields: true,
      onWebhook: (_event, text) => webhooks.push(text),
    });
    closers.push(() => sandbox.close());
    const send = fetchCalls(sandbox);
    const extra = { extraField: 1 };
    const created = await send(
      'POST',
      '/verifications',
      createBody({ ...extra, phoneNumbers: [{ phoneNumber: PHONE, isVerified: false, ...extra }] }),
    );
    expect(created.status).toBe(201);
    const { id } = JSON.parse(created.text);
    const session = { externalId: 'signup-1', country: 'DE', phoneNo: PHONE, ...extra };
    const answers = [
      created,
      await send('GET', `/verifications/${id}`),
      await send('POST', `/_sandbox/verifications/${id}/open`, JSON.stringify(extra)),
      await send('POST', '/_sandbox/v2/verifications', JSON.stringify(session)),
      await send('GET', '/v2/verifications/'),
    ];
    expect(answers.map((a) => a.status)).toEqual([201, 200, 200, 201, 200]);
    for (const text of [...answers.map((a) => a.text), ...webhooks]) expect(text).not.toContain('extraField');
    expect(webhooks.length).toBeGreaterThan(0);
    expect(logged).not.toHaveBeenCalled();
  });
});
