// The journeys of the partner document's lifecycle table and event
// sequences, played on the local sandbox, for the tests that feed a webhook
// receiver what they emit and compare its final view with the service's.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPartnerClient } from '../../src/partner.js';
import { createSandboxFetch, type SandboxFetch } from '../../src/sandbox/fetch.js';
import type { WebhookEvent } from '../../src/webhooks/events.js';

/** `frozen`: every change carries the same time (the ties a receiver must settle); `ticking`: 1 ms more per reading. */
export type JourneyClock = 'frozen' | 'ticking';

/** A local sandbox served on a loopback port, with every webhook it emitted, in the order emitted. */
export interface JourneySandbox {
  url: string;
  authKey: string;
  events: WebhookEvent[];
  clock: JourneyClock;
  close(): void;
}

/** A sandbox on a free port that takes `authKey`, its clock ticking until `clock` is set. */
export async function serveJourneySandbox(authKey: string): Promise<JourneySandbox> {
  let ms = Date.UTC(2026, 2, 14, 9, 0);
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk);
    const headers = Object.entries(req.headers).map(([k, v]) => [k, String(v)] as [string, string]);
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
    const answer = await sandbox.fetch(
      new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }),
    );
    res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
  });
  const served: JourneySandbox = {
    url: '',
    authKey,
    events: [],
    clock: 'ticking',
    close: () => {
      sandbox.close();
      server.closeAllConnections();
      server.close();
    },
  };
  const sandbox: SandboxFetch = await createSandboxFetch({
    authKey,
    now: () => new Date(served.clock === 'frozen' ? ms : ms++),
    onWebhook: (event) => served.events.push(event),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  served.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return served;
}

/** The records the journeys made: their ids, to read back from the sandbox. */
export interface Played {
  verificationIds: string[];
  userIds: string[];
  /** The webhooks of these journeys, in the order they were emitted. */
  events: WebhookEvent[];
}

let phones = 0;
/** A number no other journey of this process uses (a shared one would close or merge across journeys). */
const newPhone = () => `+4915${String(process.pid % 1000).padStart(3, '0')}${String(phones++).padStart(6, '0')}`;

/** Plays every journey once on `sandbox`, each with numbers of its own. */
export async function playJourneys(sandbox: JourneySandbox): Promise<Played> {
  const partner = createPartnerClient({ baseUrl: sandbox.url, authKey: sandbox.authKey });
  const from = sandbox.events.length;
  const verificationIds: string[] = [];
  const create = async (phoneNumber: string, requirements: ('firstAndLastName' | 'document')[] = []) => {
    const body = {
      externalUserId: crypto.randomUUID(),
      redirectUrl: 'https://partner.example/done',
      phoneNumbers: [{ phoneNumber, isVerified: false }],
      requirements: requirements.map((type) => ({ type })),
    };
    const { data, error } = await partner.POST('/verifications', { body });
    if (!data) throw new Error(`the sandbox refused a journey's create: ${JSON.stringify(error)}`);
    verificationIds.push(data.id);
    return data.id;
  };
  /** POSTs a verification's control call: `open`, `scan`, `name`, `review/accept`, `expire`, `close`, `phone-verification`. */
  const control = async (id: string, action: string, body: object = {}) => {
    const res = await fetch(`${sandbox.url}/_sandbox/verifications/${id}/${action}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`the sandbox refused a journey's ${action}: ${await res.text()}`);
  };
  const scan = (id: string, outcome: 'pass' | 'review' | 'fail') => control(id, 'scan', { outcome });
  const name = (id: string) => control(id, 'name', { firstName: 'Lena', lastName: 'Hoffmann' });
  const revert = async (verificationId: string) => {
    const { error } = await partner.POST('/verifications/revert', { body: { verificationId, author: 'journeys' } });
    if (error) throw new Error(`the sandbox refused a journey's revert: ${JSON.stringify(error)}`);
  };
  const opened = async (phone = newPhone(), requirements?: ('firstAndLastName' | 'document')[]) => {
    const id = await create(phone, requirements);
    await control(id, 'open');
    return id;
  };

  // New user: opened, completed (user.created), name entered and phone verified (user.updated each).
  const newUser = await opened();
  await scan(newUser, 'pass');
  await name(newUser);
  await control(newUser, 'phone-verification');
  // Merge: a second session of the same number completes into the same user (user.merged).
  const shared = newPhone();
  await scan(await opened(shared), 'pass');
  await scan(await opened(shared), 'pass');
  // Waiting for input, then completed once the name is entered.
  const waiting = await opened(newPhone(), ['firstAndLastName', 'document']);
  await scan(waiting, 'pass');
  await name(waiting);
  // Manual review, accepted (user.created).
  const review = await opened();
  await scan(review, 'review');
  await control(review, 'review/accept');
  // Declined.
  await scan(await opened(), 'fail');
  // Reverted after completion (the user deleted: user.deleted), and while waiting for input (P55).
  const completed = await opened();
  await scan(completed, 'pass');
  await revert(completed);
  const waitingReverted = await opened(newPhone(), ['firstAndLastName', 'document']);
  await scan(waitingReverted, 'pass');
  await revert(waitingReverted);
  // Expired, from created and from started.
  await control(await create(newPhone()), 'expire');
  await control(await opened(), 'expire');
  // Closed by the partner, and by a new session for the same number (which stays created).
  await control(await opened(), 'close');
  const renewed = newPhone();
  await opened(renewed);
  await create(renewed);

  const events = sandbox.events.slice(from);
  const userIds = [...new Set(events.flatMap((e) => (e.dataType === 'user' ? [e.data.userId] : [])))];
  return { verificationIds, userIds, events };
}

/** `items` in an order drawn from `seed` (a linear congruential generator: the same seed, the same order). */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The orders a receiver is fed the journeys' webhooks in: as emitted, reversed, shuffled (three seeds), each twice. */
export const DELIVERY_ORDERS: Record<string, <T>(events: readonly T[]) => T[]> = {
  'in order': (events) => [...events],
  reversed: (events) => [...events].reverse(),
  'shuffled (seed 1)': (events) => shuffled(events, 1),
  'shuffled (seed 7)': (events) => shuffled(events, 7),
  'shuffled (seed 42)': (events) => shuffled(events, 42),
  'each twice, shuffled (seed 3)': (events) => shuffled([...events, ...events], 3),
};

/** `body` signed as the service signs it (an HMAC-SHA256 of its bytes, in hex), without the package's helpers. */
export const sign = (body: string, key: string) => createHmac('sha256', key).update(body).digest('hex');

/** POSTs `body` to the receiver at `url` as the service delivers a webhook; resolves with the status it answered. */
export async function deliver(url: string, body: string, signature: string): Promise<number> {
  const headers = { 'Content-Type': 'application/json', 'X-SIGNATURE': signature };
  const res = await fetch(url, { method: 'POST', headers, body });
  await res.arrayBuffer();
  return res.status;
}

interface View {
  verifications: Record<string, string>;
  users: Record<string, string>;
}

/**
 * What a receiver's `log` says of the records `played` made (each one's last
 * `verification <id> is <status>` or `user <id> is kept|deleted`), beside what the service holds.
 */
export async function receiverAndService(sandbox: JourneySandbox, played: Played, log: string) {
  const view: Record<string, string> = {};
  for (const line of log.split('\n')) {
    const kept = /^(?:verification|user) (\S+) is (\S+)$/.exec(line);
    if (kept) view[kept[1]] = kept[2];
  }
  const held = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, view[id]]));
  const receiver: View = { verifications: held(played.verificationIds), users: held(played.userIds) };
  return { receiver, service: await serviceView(sandbox, played) };
}

/** What the service holds now: each verification's status, and whether each user still exists. */
async function serviceView(sandbox: JourneySandbox, played: Played): Promise<View> {
  const partner = createPartnerClient({ baseUrl: sandbox.url, authKey: sandbox.authKey });
  const verifications: Record<string, string> = {};
  for (const verificationId of played.verificationIds) {
    const { data } = await partner.GET('/verifications/{verificationId}', { params: { path: { verificationId } } });
    verifications[verificationId] = data!.status;
  }
  const users: Record<string, 'kept' | 'deleted'> = {};
  for (const userId of played.userIds) {
    const { response } = await partner.GET('/users/{userId}', { params: { path: { userId } } });
    users[userId] = response.status === 404 ? 'deleted' : 'kept';
  }
  return { verifications, users };
}
