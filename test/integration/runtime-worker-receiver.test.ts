// The webhooks guide's Worker project (guides/examples/worker-receiver), as a
// partner finds it in the installed package: its worker.ts bundled as
// wrangler bundles it (esbuild, `cloudflare:workers` left to the runtime) and
// run in workerd with the Durable Object, SQLite storage and variables its
// wrangler.jsonc declares, the storage on disk. It is fed the webhooks of
// every journey of the lifecycle table with ties (the local sandbox's clock
// stopped), part before a restart and all of them again, shuffled and
// repeated, after it: what it handled before is remembered, and its final
// view is the status the service holds. A signed body it cannot parse is
// answered 200 and parked; a forged one 401.
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';
import { linkSharedInstall } from '../helpers/packed-package.js';
import { serveWorkerd, type WorkerdExtras } from '../helpers/runtimes-harness.js';
import {
  deliver,
  type JourneySandbox,
  type Played,
  playJourneys,
  receiverAndService,
  serveJourneySandbox,
  shuffled,
  sign as signWith,
} from '../helpers/webhook-journeys.js';

const AUTH_KEY = 'sbx_worker_receiver_key';
const work = mkdtempSync(path.join(os.tmpdir(), 'vc-worker-receiver-'));
const project = path.join(work, 'worker-receiver');

interface Wrangler {
  main: string;
  compatibility_date: string;
  vars: Record<string, string>;
  durable_objects: { bindings: { name: string; class_name: string }[] };
  migrations: { new_sqlite_classes?: string[] }[];
}

let wrangler: Wrangler;
let extras: WorkerdExtras;
let sandbox: JourneySandbox;
let played: Played;

beforeAll(async () => {
  await linkSharedInstall(project);
  const shipped = path.join(
    project,
    'node_modules',
    '@verification-service',
    'contracts',
    'guides',
    'examples',
    'worker-receiver',
  );
  const config = path.join(shipped, 'wrangler.jsonc');
  // wrangler.jsonc as wrangler reads it: JSON with comments.
  const parsed = ts.parseConfigFileTextToJson(config, readFileSync(config, 'utf8'));
  if (parsed.error) throw new Error(`wrangler.jsonc does not parse: ${JSON.stringify(parsed.error.messageText)}`);
  wrangler = parsed.config;
  copyFileSync(path.join(shipped, wrangler.main), path.join(project, wrangler.main));
  await build({
    entryPoints: [path.join(project, wrangler.main)],
    absWorkingDir: project,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['cloudflare:workers'],
    outfile: path.join(project, 'worker.js'),
    logLevel: 'silent',
  });
  sandbox = await serveJourneySandbox(AUTH_KEY);
  sandbox.clock = 'frozen';
  played = await playJourneys(sandbox);
  sandbox.clock = 'ticking';

  // The Durable Object of wrangler.jsonc, with SQLite when its migration asks for it, stored on disk.
  mkdirSync(path.join(project, 'store'));
  const vars = { ...wrangler.vars, AUTH_KEY, PARTNER_URL: sandbox.url };
  const sqlite = new Set(wrangler.migrations.flatMap((m) => m.new_sqlite_classes ?? []));
  extras = {
    compatibilityDate: wrangler.compatibility_date,
    services: `(name = "store", disk = (path = ${JSON.stringify(path.join(project, 'store'))}, writable = true)),
    (name = "loopback", network = (allow = ["local"])),`,
    worker: `
  bindings = [
    ${Object.entries(vars)
      .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)}),`)
      .join('\n    ')}
    ${wrangler.durable_objects.bindings
      .map((b) => `(name = ${JSON.stringify(b.name)}, durableObjectNamespace = ${JSON.stringify(b.class_name)}),`)
      .join('\n    ')}
  ],
  durableObjectNamespaces = [
    ${wrangler.durable_objects.bindings
      .map(
        (b) =>
          `(className = ${JSON.stringify(b.class_name)}, uniqueKey = ${JSON.stringify(`test-${b.class_name}`)}, enableSql = ${sqlite.has(b.class_name)}),`,
      )
      .join('\n    ')}
  ],
  durableObjectStorage = (localDisk = "store"),
  globalOutbound = "loopback",`,
  };
}, HANG_CEILING_MS);

afterAll(() => {
  sandbox?.close();
  rmSync(work, { recursive: true, force: true });
});

const sign = (body: string, key = AUTH_KEY) => signWith(body, key);

const post = (port: number, body: string, signature = sign(body)) =>
  deliver(`http://127.0.0.1:${port}/`, body, signature);

describe('the webhooks guide’s Worker project, in workerd', () => {
  it('remembers across a restart what it handled, and ends in the status the service holds for every journey', {
    timeout: HANG_CEILING_MS,
  }, async () => {
    const events = played.events.map((event) => JSON.stringify(event));
    const half = events.slice(0, Math.ceil(events.length / 2));
    let log = '';
    const first = await serveWorkerd(project, 'worker.js', extras);
    try {
      for (const body of half) expect(await post(first.port, body), `${body}\n${first.log()}`).toBe(200);
    } finally {
      await first.stop();
      log += first.log();
    }
    // Another process, the same storage: every event again, shuffled, and a repeat of each.
    const second = await serveWorkerd(project, 'worker.js', extras, first.port);
    try {
      for (const body of shuffled([...events, ...events], 5))
        expect(await post(second.port, body), `${body}\n${second.log()}`).toBe(200);
      const unparseable = `{"eventId": "${randomUUID()}", cut off`;
      expect(await post(second.port, unparseable)).toBe(200);
      const forged = `{"eventId": "${randomUUID()}", forged`;
      expect(await post(second.port, forged, sign(forged, 'another-key'))).toBe(401);
      await expect.poll(() => second.log(), { timeout: 10_000 }).toContain(unparseable);
      expect(second.log()).toMatch(/parked .*cut off/);
      expect(second.log()).not.toContain(forged);
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
