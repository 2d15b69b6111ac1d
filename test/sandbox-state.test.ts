// --state: the whole sandbox state survives a restart and a crash. A real
// child sandbox is killed with SIGKILL under concurrent load; a restart on
// the same file must hold every change that was acknowledged (S21).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';
import { serveSandbox } from '../src/sandbox/server.js';
import { HANG_CEILING_MS } from './helpers/ceilings.js';

const BIN = path.join(ROOT, 'generated', 'lib', 'src', 'cli', 'index.js');
const FIRST_KEY = 'sbx_state_first_key';
const children: ChildProcess[] = [];
const servers: Server[] = [];
const folders: string[] = [];

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const s of servers.splice(0)) s.close();
  for (const f of folders.splice(0)) fs.rmSync(f, { recursive: true, force: true });
});

function stateFile(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-state-'));
  folders.push(folder);
  return path.join(folder, 'state.jsonl');
}

async function startChild(
  file: string,
): Promise<{ url: string; child: ChildProcess; stdout: () => string; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--state', file, '--auth-key', FIRST_KEY]);
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  await expect.poll(() => stdout + stderr, { timeout: 20_000 }).toMatch(/Ctrl-C stops it|error/);
  const url = /Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
  if (!url) throw new Error(`sandbox did not start: ${stderr}`);
  return { url, child, stdout: () => stdout, stderr: () => stderr };
}

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});
const withKey = (key: string, init: RequestInit = {}) => ({
  ...init,
  headers: { 'Content-Type': 'application/json', ...(init.headers as object), 'X-Auth-Key': key },
});
const createBody = (i: number) => ({
  phoneNumbers: [{ phoneNumber: `+49151${String(2000000 + i).padStart(7, '0')}`, isVerified: false }],
  externalUserId: `7c6c1b3e-0000-4000-8000-${String(i).padStart(12, '0')}`,
  redirectUrl: 'https://app.example.com/done',
  requirements: [{ type: 'document' as const }],
  metadata: { n: String(i) },
});

/** A webhook receiver that refuses (500) until told to accept; remembers every event id it saw. */
function receiver(): Promise<{ url: string; seen: Set<string>; accept: (yes: boolean) => void }> {
  let accepting = false;
  const seen = new Set<string>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      seen.add(JSON.parse(body).eventId);
      res.writeHead(accepting ? 200 : 500).end();
    });
  });
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}/hooks`, seen, accept: (yes) => (accepting = yes) });
    }),
  );
}

describe('sandbox --state', () => {
  it('after kill -9 under concurrent load, a restart holds every acknowledged change', {
    timeout: HANG_CEILING_MS,
  }, async () => {
    const file = stateFile();
    const hooks = await receiver();
    const first = await startChild(file);
    const base = first.url;

    // Keys, clock, partner, a user with webhook records, pending deliveries, a v2 session.
    expect(
      (await fetch(`${base}/partners`, withKey(FIRST_KEY, { ...json({ webhookUrl: hooks.url }), method: 'PUT' })))
        .status,
    ).toBe(200);
    const rotated = await (await fetch(`${base}/auth-keys`, withKey(FIRST_KEY, json({})))).json();
    const key: string = rotated.authKeys[0].key;
    expect((await fetch(`${base}/_sandbox/clock/advance`, json({ minutes: 90 }))).status).toBe(200);
    const done = await (await fetch(`${base}/verifications`, withKey(key, json(createBody(0))))).json();
    expect((await fetch(`${base}/_sandbox/verifications/${done.id}/open`, json({}))).status).toBe(200);
    const scanned = await (
      await fetch(`${base}/_sandbox/verifications/${done.id}/scan`, json({ outcome: 'pass' }))
    ).json();
    expect(scanned.status).toBe('completed');
    const userId: string = scanned.userId;
    const session = await (
      await fetch(
        `${base}/_sandbox/v2/verifications`,
        json({ externalId: 'ext-state-1', country: 'DE', phoneNo: '+4915100000001' }),
      )
    ).json();
    await expect.poll(() => hooks.seen.size, { timeout: 10_000 }).toBeGreaterThan(0);
    const beforeCrash = new Set(hooks.seen);

    // Concurrent creates; SIGKILL once some are acknowledged, with others in flight.
    const acknowledged: { id: string; createdAt: string; url: string }[] = [];
    let stop = false;
    let n = 1;
    const worker = async () => {
      while (!stop) {
        const i = n++;
        try {
          const res = await fetch(`${base}/verifications`, withKey(key, json(createBody(i))));
          if (res.status === 201) acknowledged.push(await res.json());
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

    hooks.accept(true);
    const second = await startChild(file);
    const again = second.url;
    // Every acknowledged create is there, as it was answered.
    const list = await (await fetch(`${again}/verifications?limit=0`, withKey(key))).json();
    expect(list.count).toBeGreaterThanOrEqual(acknowledged.length + 1);
    for (const a of acknowledged) {
      const got = await (await fetch(`${again}/verifications/${a.id}`, withKey(key))).json();
      expect(got).toMatchObject({ id: a.id, createdAt: a.createdAt, url: a.url, status: 'created' });
    }
    // The rotated-away key stays refused; the clock kept its offset.
    expect((await fetch(`${again}/partners`, withKey(FIRST_KEY))).status).toBe(401);
    expect((await fetch(`${again}/partners`, withKey(key))).status).toBe(200);
    expect((await (await fetch(`${again}/_sandbox/clock`)).json()).offsetMinutes).toBe(90);
    // The user, its webhook records and the v2 session.
    expect((await (await fetch(`${again}/users/${userId}`, withKey(key))).json()).id).toBe(userId);
    expect((await (await fetch(`${again}/users/${userId}/webhooks`, withKey(key))).json()).count).toBeGreaterThan(0);
    const { accessToken: v2Token, authKey: activeKey } = await (await fetch(`${again}/_sandbox/credentials`)).json();
    expect(activeKey).toBe(key);
    expect(
      (await fetch(`${again}/v2/verifications/${session.id}`, { headers: { Authorization: `Bearer ${v2Token}` } }))
        .status,
    ).toBe(200);
    // Deliveries refused before the crash are sent again after the restart, and recorded as delivered.
    await expect
      .poll(
        async () =>
          (await (await fetch(`${again}/users/${userId}/webhooks`, withKey(key))).json()).webhooks.every(
            (w: { success: boolean }) => w.success,
          ),
        { timeout: 15_000 },
      )
      .toBe(true);
    expect([...beforeCrash].every((id) => hooks.seen.has(id))).toBe(true);
  });

  it('a copy of the file taken while it runs rebuilds the same state, ids and webhook histories included', {
    timeout: 30_000,
  }, async () => {
    const file = stateFile();
    const sandbox = await serveSandbox({ port: 0, state: file, authKey: FIRST_KEY });
    const call = async (method: string, at: string, body?: unknown) => {
      const res = await fetch(
        `${sandbox.url}${at}`,
        withKey(FIRST_KEY, body === undefined ? { method } : { ...json(body), method }),
      );
      return { status: res.status, body: res.status === 204 ? null : await res.json() };
    };
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
      const get = async (at: string) => (await fetch(`${base}${at}`, withKey(FIRST_KEY))).json();
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
    expect((await fetch(`${sandbox.url}/verifications`, withKey(FIRST_KEY, json(createBody(3))))).status).toBe(201);
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
    expect(child.stdout()).toMatch(/ {2}webhooks {6}http:\/\/\*\*\*@127\.0\.0\.1:9\/hooks\n/);
    for (const logged of [...lines, child.stdout(), child.stderr()]) {
      expect(logged).not.toContain('s3cret');
      expect(logged).not.toContain('lena');
    }
  });
});
