// The webhook receivers the docs show (the partner reference's, the webhooks
// guide's, the README's Worker, and the guide's Worker project as the packed
// package ships it, in workerd) type-check and do what a receiver of this
// service must, each in a process of its own reading the local sandbox on a
// tie; what it did is read from its log.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { freePort } from '../../scripts/lib/prism.mjs';
import { checkWebhookReceiver } from '../../src/webhooks/check.js';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';
import { deref, loadBundle } from '../helpers/openapi.js';
import { linkSharedInstall } from '../helpers/packed-package.js';
import { untilAnswering, wranglerProject } from '../helpers/runtimes-harness.js';
import { scratchDir, typeCheck, writeModule } from '../helpers/typescript-snippets.js';
import {
  DELIVERY_ORDERS,
  deliver,
  type JourneyClock,
  type JourneySandbox,
  playJourneys,
  receiverAndService,
  serveJourneySandbox,
  shuffled,
  sign as signWith,
} from '../helpers/webhook-journeys.js';

const doc = loadBundle('partner');
const description: string = doc.tags.find((t: { name: string }) => t.name === 'Webhooks')?.description ?? '';
const reference = Object.fromEntries(
  [...description.matchAll(/```ts\n(\/\/ receiver: (\S+)\n[\s\S]*?)```/g)].map((m) => [m[2], m[1]]),
);
/** The ```ts blocks of a Markdown file of the repository. */
const tsBlocks = (file: string) =>
  [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
const guideBlocks = tsBlocks('guides/webhooks.md');
const guide = {
  handleWebhook: guideBlocks.find((b) => b.startsWith('// handle-webhook.ts\n')) ?? '',
  nodeReceiver: guideBlocks.find((b) => b.startsWith('// receiver.ts\n') && b.includes("from 'node:http'")) ?? '',
};
const readmeWorker = tsBlocks('README.md').find((b) => b.includes('export default')) ?? '';

const AUTH_KEY = 'sbx_receiver_test_key';
const PREVIOUS_AUTH_KEY = 'sbx_receiver_previous_key';
const example = deref(
  doc,
  Object.values<object>(doc.webhooks['verification.updated'].post.requestBody.content['application/json'].examples)[0],
).value;
const sign = (body: string, key = AUTH_KEY) => signWith(body, key);
/** The documented verification.updated as a new event of a new verification, spaced as a sender might. */
const updatedEvent = (verificationId = randomUUID(), updatedAt = example.data.updatedAt) =>
  JSON.stringify({ ...example, eventId: randomUUID(), data: { ...example.data, verificationId, updatedAt } }, null, 1);

// A fetch-style handler served as a platform calls it: a Request and the
// settings in (a Worker's env, here the process's), its Response's status out.
const FETCH_ADAPTER = `import { createServer } from 'node:http';
const handler = await import(process.argv[2]);
const handleWebhook = handler.handleWebhook ?? ((request, env) => handler.default.fetch(request, env));
createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const request = new Request('http://127.0.0.1' + req.url, { method: req.method, headers: req.headers, body: Buffer.concat(chunks) });
  try {
    const response = await handleWebhook(request, process.env);
    res.writeHead(response.status).end(await response.text());
  } catch (err) {
    res.writeHead(500).end(String(err));
  }
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

let dir: string;
// The Worker projects' folders, beside the packed install they link.
const work = mkdtempSync(path.join(os.tmpdir(), 'vc-worker-receiver-'));
// The service each receiver reads on a tie: the local sandbox, taking the receivers' key.
let sandbox: JourneySandbox;
beforeAll(async () => {
  dir = await scratchDir('webhook-receivers');
  sandbox = await serveJourneySandbox(AUTH_KEY);
});
afterAll(() => {
  sandbox?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The webhooks guide's Worker project as the installed package ships it, in a fresh project; served by the answered function. */
async function workerProject(project: string) {
  await linkSharedInstall(project);
  return wranglerProject(project, 'node_modules/@verification-service/contracts/guides/examples/worker-receiver');
}

/** A receiver started: where it listens, what it logged so far, and a stop. */
interface Running {
  url: string;
  log: () => string;
  stop: () => unknown;
}

/** Runs `files` (the first with node, or by the fetch adapter when `fetchStyle`), resolving once it answers. */
function inNode(files: Record<string, string>, fetchStyle: boolean) {
  return async (name: string, env: Record<string, string>): Promise<Running> => {
    const folder = path.join(dir, name.replace(/\W+/g, '-'));
    const emitted = await Promise.all(Object.entries(files).map(([file, source]) => writeModule(folder, file, source)));
    const main = fetchStyle ? [await writeModule(folder, 'fetch-adapter', FETCH_ADAPTER), emitted[0]] : [emitted[0]];
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/webhooks`;
    const inherited = { ...process.env, PREVIOUS_AUTH_KEY: undefined };
    const child = spawn(process.execPath, main, { env: { ...inherited, ...env, PORT: String(port) } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    await untilAnswering(url, child, () => `${name}: ${output}`, { method: 'POST', body: '{}' });
    return { url, log: () => output, stop: () => child.kill() };
  };
}

interface Receiver {
  start: (name: string, env: Record<string, string>) => Promise<Running>;
  /** It takes one key only, not also the previous one. */
  oneKey?: true;
}

const RECEIVERS: Record<string, Receiver> = {
  'the reference node:http receiver': { start: inNode({ receiver: reference['node:http'] }, false) },
  'the reference fetch-style handler': { start: inNode({ receiver: reference.fetch }, true), oneKey: true },
  "the guide's handle-webhook.ts": { start: inNode({ 'handle-webhook': guide.handleWebhook }, true) },
  "the guide's node:http receiver.ts": {
    start: inNode({ receiver: guide.nodeReceiver, 'handle-webhook': guide.handleWebhook }, false),
  },
  "the README's Worker": { start: inNode({ worker: readmeWorker, 'handle-webhook': guide.handleWebhook }, true) },
  // As the installed package ships it, in workerd with its Durable Object stored on disk.
  "the guide's Worker project (guides/examples/worker-receiver)": {
    start: async (_name, env) => {
      const served = await (await workerProject(path.join(work, 'worker-receiver')))(env);
      return { url: `http://127.0.0.1:${served.port}/`, log: served.log, stop: served.stop };
    },
  },
};

describe('the receivers the docs show', () => {
  it('type-check against the package (as `tsc --init` sets a project up)', async () => {
    const snippets = { node: reference['node:http'], fetch: reference.fetch, 'handle-webhook': guide.handleWebhook };
    expect(await typeCheck(path.join(dir, 'typecheck'), { ...snippets, receiver: guide.nodeReceiver })).toBe('');
  });
});

describe.each(Object.entries(RECEIVERS))('%s', (name, receiver) => {
  let running: Running;
  let url: string;
  const output = () => running.log();
  const lines = () => output().split('\n');

  beforeAll(async () => {
    const env = { AUTH_KEY, PARTNER_URL: sandbox.url };
    running = await receiver.start(name, receiver.oneKey ? env : { ...env, PREVIOUS_AUTH_KEY });
    url = running.url;
  }, HANG_CEILING_MS);

  afterAll(() => running?.stop());

  const post = (body: string, signature: string) => deliver(url, body, signature);
  /**
   * Sends a fresh signed event and waits for the line saying it acted on it:
   * every line logged before it has then arrived.
   */
  const settled = async () => {
    const id = randomUUID();
    const body = updatedEvent(id);
    expect(await post(body, sign(body))).toBe(200);
    await expect.poll(output, { timeout: 10_000 }).toContain(`verification ${id} is ${example.data.status}`);
  };

  it('refuses the same event re-serialized, and a signature made with another key', async () => {
    const body = updatedEvent();
    expect(await post(JSON.stringify(JSON.parse(body)), sign(body))).toBe(401);
    expect(await post(body, sign(body, 'another-key'))).toBe(401);
  });

  it('answers 200 to a repeat of an event, and acts on it once', async () => {
    const id = randomUUID();
    const body = updatedEvent(id);
    expect([await post(body, sign(body)), await post(body, sign(body))]).toEqual([200, 200]);
    await settled();
    expect(lines().filter((line) => line.startsWith(`verification ${id}`))).toEqual([
      `verification ${id} is ${example.data.status}`,
    ]);
  });

  it('answers 200 to a verification.updated older than what it stored, and ignores it, comparing times rather than strings', async () => {
    const id = randomUUID();
    // 09:30 UTC, then 08:00 UTC written with an offset: later as a string, earlier as a time.
    const newer = updatedEvent(id, '2026-03-14T09:30:00Z');
    const older = updatedEvent(id, '2026-03-14T10:00:00+02:00');
    expect(await post(newer, sign(newer))).toBe(200);
    expect(await post(older, sign(older))).toBe(200);
    await settled();
    expect(lines().filter((line) => line.startsWith(`verification ${id}`))).toEqual([
      `verification ${id} is ${example.data.status}`,
      `verification ${id}: older than what is stored, ignored`,
    ]);
  });

  it('answers 200 to a body signed with its key that it cannot parse, and logs it; 401 to a forged one', async () => {
    const body = `{"eventId": "${randomUUID()}", cut off`;
    expect(await post(body, sign(body))).toBe(200);
    await expect.poll(() => lines(), { timeout: 10_000 }).toContainEqual(expect.stringContaining(body));
    expect(lines().find((line) => line.includes(body))).toMatch(/parked/);
    const other = `{"eventId": "${randomUUID()}", cut off`;
    expect(await post(other, sign(other, 'another-key'))).toBe(401);
    await settled();
    expect(output()).not.toContain(other);
  });

  // Every order with ties everywhere (the frozen clock); two with none, where each event is newer or older.
  it.each([
    ...Object.keys(DELIVERY_ORDERS).map((order) => ({ order, clock: 'frozen' as JourneyClock })),
    ...['in order', 'each twice, shuffled (seed 3)'].map((order) => ({ order, clock: 'ticking' as JourneyClock })),
  ])(
    'ends in the status the service holds for every journey, its webhooks $order, the clock $clock',
    async ({ order, clock }) => {
      sandbox.clock = clock;
      const played = await playJourneys(sandbox);
      sandbox.clock = 'ticking';
      for (const event of DELIVERY_ORDERS[order](played.events)) {
        const body = JSON.stringify(event);
        expect(await post(body, sign(body)), body).toBe(200);
      }
      await settled();
      const { receiver, service } = await receiverAndService(sandbox, played, output());
      expect(receiver).toEqual(service);
    },
  );

  it('passes every case of the receiver check', async () => {
    const report = await checkWebhookReceiver(url, {
      authKey: AUTH_KEY,
      previousKey: receiver.oneKey ? undefined : PREVIOUS_AUTH_KEY,
    });
    expect(report.cases.filter((c) => c.outcome === 'failed').map((c) => c.problem)).toEqual([]);
    expect(report.passed).toBe(true);
    const skipped = report.cases.filter((c) => c.outcome === 'skipped').map((c) => c.id);
    expect(skipped).toEqual(receiver.oneKey ? ['previous-key'] : []);
  });
});

describe("the guide's Worker project (guides/examples/worker-receiver), restarted on its storage", () => {
  it('remembers across a restart what it handled, and ends in the status the service holds for every journey', {
    timeout: HANG_CEILING_MS,
  }, async () => {
    const serve = await workerProject(path.join(work, 'worker-receiver-restarted'));
    // Every journey with ties: the clock stopped.
    sandbox.clock = 'frozen';
    const played = await playJourneys(sandbox);
    sandbox.clock = 'ticking';
    const vars = { AUTH_KEY, PARTNER_URL: sandbox.url };
    const post = (port: number, body: string, signature = sign(body)) =>
      deliver(`http://127.0.0.1:${port}/`, body, signature);
    const events = played.events.map((event) => JSON.stringify(event));
    const half = events.slice(0, Math.ceil(events.length / 2));
    let log = '';
    const first = await serve(vars);
    try {
      for (const body of half) expect(await post(first.port, body), `${body}\n${first.log()}`).toBe(200);
    } finally {
      await first.stop();
      log += first.log();
    }
    // Another process, the same storage: every event again, shuffled, and a repeat of each.
    const second = await serve(vars, first.port);
    try {
      for (const body of shuffled([...events, ...events], 5))
        expect(await post(second.port, body), `${body}\n${second.log()}`).toBe(200);
      // Parked after every event before it (a forged one is refused as in the table above).
      expect(await post(second.port, `{"eventId": "${randomUUID()}", cut off`)).toBe(200);
      await expect.poll(() => second.log(), { timeout: 10_000 }).toMatch(/parked .*cut off/);
    } finally {
      await second.stop();
      log += second.log();
    }
    // Handled before the restart, so only acknowledged after it.
    const before = half.map((body) => JSON.parse(body).eventId as string);
    for (const eventId of before) expect(second.log()).toContain(`${eventId} again: already handled`);
    const { receiver, service } = await receiverAndService(sandbox, played, log);
    expect(receiver).toEqual(service);
  });
});
