// --state: the whole sandbox state survives a restart and a crash. A real
// child sandbox is killed with SIGKILL under concurrent load; a restart on
// the same file must hold every change that was acknowledged (S21).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serveSandbox } from '../src/sandbox/server.js';
import { HANG_CEILING_MS } from './helpers/ceilings.js';
import { send, startCommand, startReceiver } from './helpers/served-sandbox.js';

const FIRST_KEY = 'sbx_state_first_key';
const closers: (() => unknown)[] = [];
// Last opened, first closed: a folder goes only after the child writing into it has died.
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function stateFile(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-state-'));
  closers.push(() => fs.rmSync(folder, { recursive: true, force: true }));
  return path.join(folder, 'state.jsonl');
}

/** The sandbox command on `file`, killed with SIGKILL after the test. */
async function startChild(file: string) {
  const started = await startCommand(['--state', file, '--auth-key', FIRST_KEY]);
  closers.push(() => {
    started.child.kill('SIGKILL');
    return started.exited;
  });
  if (!started.url) throw new Error(`sandbox did not start: ${started.printed.stderr}`);
  return started;
}

const createBody = (i: number) => ({
  phoneNumbers: [{ phoneNumber: `+49151${String(2000000 + i).padStart(7, '0')}`, isVerified: false }],
  externalUserId: `7c6c1b3e-0000-4000-8000-${String(i).padStart(12, '0')}`,
  redirectUrl: 'https://app.example.com/done',
  requirements: [{ type: 'document' as const }],
  metadata: { n: String(i) },
});

describe('sandbox --state', () => {
  it('after kill -9 under concurrent load, a restart holds every acknowledged change', {
    timeout: HANG_CEILING_MS,
  }, async () => {
    const file = stateFile();
    let accepting = false;
    const hooks = await startReceiver(() => (accepting ? 200 : 500));
    closers.push(hooks.close);
    const first = await startChild(file);
    const at = (base: string, key: string) => (method: string, target: string, body?: unknown) =>
      send(base, key, method, target, body);
    const asFirst = at(first.url, FIRST_KEY);

    // Keys, clock, partner, a user with webhook records, pending deliveries, a v2 session.
    expect((await asFirst('PUT', '/partners', { webhookUrl: hooks.url })).status).toBe(200);
    const key: string = (await asFirst('POST', '/auth-keys', {})).body.authKeys[0].key;
    const call = at(first.url, key);
    expect((await call('POST', '/_sandbox/clock/advance', { minutes: 90 })).status).toBe(200);
    const done = (await call('POST', '/verifications', createBody(0))).body;
    expect((await call('POST', `/_sandbox/verifications/${done.id}/open`, {})).status).toBe(200);
    const scanned = (await call('POST', `/_sandbox/verifications/${done.id}/scan`, { outcome: 'pass' })).body;
    expect(scanned.status).toBe('completed');
    const userId: string = scanned.userId;
    const v2Session = { externalId: 'ext-state-1', country: 'DE', phoneNo: '+4915100000001' };
    const session = (await call('POST', '/_sandbox/v2/verifications', v2Session)).body;
    await expect.poll(() => hooks.attempts.size, { timeout: 10_000 }).toBeGreaterThan(0);
    const beforeCrash = [...hooks.attempts.keys()];

    // Concurrent creates; SIGKILL once some are acknowledged, with others in flight.
    const acknowledged: { id: string; createdAt: string; url: string }[] = [];
    let stop = false;
    let n = 1;
    const worker = async () => {
      while (!stop) {
        const i = n++;
        try {
          const res = await call('POST', '/verifications', createBody(i));
          if (res.status === 201) acknowledged.push(res.body);
        } catch {
          return; // the connection died with the process: not acknowledged
        }
      }
    };
    const workers = Array.from({ length: 16 }, worker);
    await expect.poll(() => acknowledged.length, { timeout: 30_000, interval: 5 }).toBeGreaterThan(300);
    first.child.kill('SIGKILL');
    // Each worker keeps sending until the dead process refuses it: requests unanswered at the kill.
    await Promise.all(workers);
    stop = true;
    expect(n - 1).toBeGreaterThanOrEqual(acknowledged.length + 16);

    accepting = true;
    const second = await startChild(file);
    const again = at(second.url, key);
    // Every acknowledged create is there, as it was answered.
    expect((await again('GET', '/verifications?limit=0')).body.count).toBeGreaterThanOrEqual(acknowledged.length + 1);
    for (const a of acknowledged) {
      const got = (await again('GET', `/verifications/${a.id}`)).body;
      expect(got).toMatchObject({ id: a.id, createdAt: a.createdAt, url: a.url, status: 'created' });
    }
    // The rotated-away key stays refused; the clock kept its offset.
    expect((await at(second.url, FIRST_KEY)('GET', '/partners')).status).toBe(401);
    expect((await again('GET', '/partners')).status).toBe(200);
    expect((await again('GET', '/_sandbox/clock')).body.offsetMinutes).toBe(90);
    // The user, its webhook records and the v2 session.
    expect((await again('GET', `/users/${userId}`)).body.id).toBe(userId);
    expect((await again('GET', `/users/${userId}/webhooks`)).body.count).toBeGreaterThan(0);
    const { accessToken: v2Token, authKey: activeKey } = (await again('GET', '/_sandbox/credentials')).body;
    expect(activeKey).toBe(key);
    const bearer = { authorization: `Bearer ${v2Token}` };
    expect((await send(second.url, key, 'GET', `/v2/verifications/${session.id}`, undefined, bearer)).status).toBe(200);
    // Deliveries refused before the crash are sent again after the restart, and recorded as delivered.
    const delivered = async () =>
      (await again('GET', `/users/${userId}/webhooks`)).body.webhooks.every((w: { success: boolean }) => w.success);
    await expect.poll(delivered, { timeout: 15_000 }).toBe(true);
    const resent = () => beforeCrash.every((id) => (hooks.attempts.get(id) ?? 0) > 1);
    await expect.poll(resent, { timeout: 15_000 }).toBe(true);
  });

  it('a copy of the file taken while it runs rebuilds the same state, ids and webhook histories included', {
    timeout: 30_000,
  }, async () => {
    const file = stateFile();
    const sandbox = await serveSandbox({ port: 0, state: file, authKey: FIRST_KEY });
    const call = (method: string, at: string, body?: unknown) => send(sandbox.url, FIRST_KEY, method, at, body);
    const short = await call('POST', '/verifications', { ...createBody(1), timeToExpiry: 5 });
    const done = await call('POST', '/verifications', createBody(2));
    await call('POST', `/_sandbox/verifications/${done.body.id}/open`, {});
    await call('POST', `/_sandbox/verifications/${done.body.id}/scan`, { outcome: 'pass' });
    // Time passes; a read expires the short session, and that change is saved as any other.
    await call('POST', '/_sandbox/clock/advance', { minutes: 10 });
    expect((await call('GET', `/verifications/${short.body.id}`)).body.status).toBe('expired');
    await call('POST', '/verifications', createBody(3));
    await call('POST', '/_sandbox/seed', {});
    const views = async (base: string) => {
      const get = async (at: string) => (await send(base, FIRST_KEY, 'GET', at)).body;
      const list = await get('/verifications?limit=50');
      const users = await get('/users?limit=50');
      const histories = await Promise.all(
        list.verifications.map((v: { id: string }) => get(`/verifications/${v.id}/webhooks?limit=50`)),
      );
      return { list, users, histories };
    };
    const before = await views(sandbox.url);
    // A crash copy, with a temp file a write cut short left beside it: what was answered is in the file.
    const copy = `${file}.crash`;
    fs.copyFileSync(file, copy);
    fs.writeFileSync(`${copy}.tmp`, '{"format":"verification-contracts-sandbox-state","vers');
    await sandbox.close();
    const restarted = await serveSandbox({ port: 0, state: copy });
    const after = await views(restarted.url);
    const rebase = (x: unknown) => JSON.parse(JSON.stringify(x).replaceAll(restarted.url, sandbox.url));
    expect(rebase(after)).toEqual(before);
    await restarted.close();
  });

  it('refuses a file that is not a sandbox state, or damaged, saying what to do', async () => {
    const file = stateFile();
    const refusal =
      /is not a sandbox state file, or is damaged; .*delete it to start empty, or choose another --state path/;
    fs.writeFileSync(file, 'name,phone\nLena,+4915112345678\n');
    await expect(serveSandbox({ port: 0, state: file })).rejects.toThrow(refusal);
    const sandbox = await serveSandbox({ port: 0, state: `${file}.new`, authKey: FIRST_KEY });
    expect((await send(sandbox.url, FIRST_KEY, 'POST', '/verifications', createBody(3))).status).toBe(201);
    await sandbox.close();
    // The whole state cut short: not read as a state at all.
    fs.writeFileSync(`${file}.new`, fs.readFileSync(`${file}.new`, 'utf8').slice(0, 200));
    await expect(serveSandbox({ port: 0, state: `${file}.new` })).rejects.toThrow(refusal);
  });

  it.each([
    ['3 (a header line, then a line per record)', { format: 'verification-contracts-sandbox-state', version: 3 }],
    ['4 (the whole state, then a line per change)', { format: 'verification-contracts-sandbox-state', version: 4 }],
  ])('refuses a file of version %s, saying what to do', async (version, first) => {
    const file = stateFile();
    fs.writeFileSync(file, `${JSON.stringify(first)}\n{"clockOffsetMs":0}\n`);
    await expect(serveSandbox({ port: 0, state: file })).rejects.toThrow(
      `has version ${version[0]}, written by an older sandbox in another format; this sandbox reads version 5 only: delete the file to start empty, or choose another --state path`,
    );
  });

  it.each([
    [6, /has version 6; .*: a newer package .*upgrade/],
    ['5', /has version "5"; this sandbox reads version 5 only: delete/],
  ])('refuses a file of version %j, saying what to do, and keeps it', async (version, refusal) => {
    const file = stateFile();
    const text = JSON.stringify({ format: 'verification-contracts-sandbox-state', version });
    fs.writeFileSync(file, text);
    await expect(serveSandbox({ port: 0, state: file })).rejects.toThrow(refusal);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });

  it('makes an existing file readable by its owner only when it opens it, as it makes a new one', async () => {
    const file = stateFile();
    const first = await serveSandbox({ port: 0, state: file });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    await first.close();
    // As a copy, or another tool, leaves it: readable by every user of the machine.
    fs.chmodSync(file, 0o644);
    const sandbox = await serveSandbox({ port: 0, state: file });
    // While it runs, before the whole state is written again at stop.
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    await sandbox.close();
    const empty = stateFile();
    fs.writeFileSync(empty, '', { mode: 0o644 });
    fs.chmodSync(empty, 0o644);
    const fresh = await serveSandbox({ port: 0, state: empty });
    expect(fs.statSync(empty).mode & 0o777).toBe(0o600);
    await fresh.close();
  });

  it('a webhook URL given at a restart is where webhooks go and what GET /partners shows; none keeps the saved one', async () => {
    const file = stateFile();
    const partnerAfter = async (webhookUrl?: string) => {
      const sandbox = await serveSandbox({ port: 0, state: file, webhookUrl });
      const { body } = await send(sandbox.url, sandbox.authKey, 'GET', '/partners');
      const target = sandbox.partner.webhookTarget();
      await sandbox.close();
      return [body.webhookUrl, target];
    };
    expect(await partnerAfter()).toEqual(['https://partner.invalid/webhooks', undefined]);
    expect(await partnerAfter('http://127.0.0.1:9/first')).toEqual(Array(2).fill('http://127.0.0.1:9/first'));
    expect(await partnerAfter()).toEqual(Array(2).fill('http://127.0.0.1:9/first'));
    expect(await partnerAfter('http://127.0.0.1:9/second')).toEqual(Array(2).fill('http://127.0.0.1:9/second'));
  });

  it('never logs the user or password of a webhook address a state file still holds', {
    timeout: HANG_CEILING_MS,
  }, async () => {
    const file = stateFile();
    const address = 'http://127.0.0.1:9/hooks';
    const first = await serveSandbox({ port: 0, state: file, webhookUrl: address });
    await first.close();
    // Written before addresses with credentials were refused: what loading must not print.
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain(address);
    fs.writeFileSync(file, text.replaceAll(address, 'http://lena:s3cret@127.0.0.1:9/hooks'));
    const lines: string[] = [];
    const sandbox = await serveSandbox({ port: 0, state: file, onDeliveryFailure: (line) => lines.push(line) });
    sandbox.partner.createVerification(createBody(5));
    await expect.poll(() => lines.length, { timeout: HANG_CEILING_MS }).toBeGreaterThan(0);
    expect(lines[0]).toContain(' to http://***@127.0.0.1:9/hooks not delivered: ');
    await sandbox.close();
    const child = await startChild(file);
    expect(child.printed.stdout).toMatch(/ {2}webhooks {6}http:\/\/\*\*\*@127\.0\.0\.1:9\/hooks\n/);
    for (const logged of [...lines, child.printed.stdout, child.printed.stderr]) {
      expect(logged).not.toContain('s3cret');
      expect(logged).not.toContain('lena');
    }
  });
});
