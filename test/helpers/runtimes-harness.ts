// Running a test's bundled module where partners' code runs without Node:
// workerd (no nodejs_compat) serving it as a Worker or a wrangler project,
// and headless Chromium loading it in a page.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { freePort } from '../../scripts/lib/prism.mjs';
import { serveStatic } from '../../scripts/lib/serve-static.mjs';
import { launchChromium } from './redoc-page.js';

/** Resolves once `url` answers `init` at all (any status); throws with `output()` when `child` exits first or after 60 s. */
export async function untilAnswering(url: string, child: ChildProcess, output: () => string, init?: RequestInit) {
  for (let tries = 0; tries < 600; tries++) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before answering on ${url}: ${output()}`);
    if (
      await fetch(url, init).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no answer on ${url} within 60 s: ${output()}`);
}

/**
 * Serves `bundle` (a module in `dir` whose default export is a Worker) with
 * workerd on 127.0.0.1 (a free port, or `port`); resolves once it takes
 * connections with its port, a stop, and its log so far, or throws with that log.
 * `extras`, in workerd's config language: the compatibility date (2025-09-01
 * when absent), the Worker's fields and more services, each ending in a comma.
 */
export async function serveWorkerd(
  dir: string,
  bundle: string,
  extras: { compatibilityDate?: string; worker?: string; services?: string } = {},
  port?: number,
): Promise<{ port: number; stop: () => Promise<void>; log: () => string }> {
  port ??= await freePort();
  writeFileSync(
    path.join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker),${extras.services ?? ''}],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed ${JSON.stringify(bundle)})],
  compatibilityDate = "${extras.compatibilityDate ?? '2025-09-01'}",${extras.worker ?? ''}
);
`,
  );
  const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'workerd'), ['serve', 'config.capnp'], { cwd: dir });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = () => {
    child.kill('SIGTERM');
    return exited;
  };
  for (let i = 0; i < 100; i++) {
    // Any answer means it listens (a TCP connection refused is no answer).
    const answered = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve(true)).on('error', () => resolve(false));
      socket.on('connect', () => socket.destroy());
    });
    if (answered) return { port, stop, log: () => log };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`workerd did not answer: ${log}`);
}

interface Wrangler {
  main: string;
  compatibility_date: string;
  vars: Record<string, string>;
  durable_objects: { bindings: { name: string; class_name: string }[] };
  migrations: { new_sqlite_classes?: string[] }[];
}

/**
 * The Worker project of wrangler.jsonc in `source` (under `project`), bundled
 * as wrangler bundles it; answers a function that serves it in workerd with
 * the Durable Objects, SQLite storage (kept across serves) and variables its
 * wrangler.jsonc declares, and `vars` besides.
 */
export async function wranglerProject(project: string, source: string) {
  const shipped = path.join(project, source);
  const config = path.join(shipped, 'wrangler.jsonc');
  // wrangler.jsonc as wrangler reads it: JSON with comments.
  const parsed = ts.parseConfigFileTextToJson(config, readFileSync(config, 'utf8'));
  if (parsed.error) throw new Error(`wrangler.jsonc does not parse: ${JSON.stringify(parsed.error.messageText)}`);
  const wrangler: Wrangler = parsed.config;
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
  mkdirSync(path.join(project, 'store'));
  const sqlite = new Set(wrangler.migrations.flatMap((m) => m.new_sqlite_classes ?? []));
  const objects = wrangler.durable_objects.bindings;
  return (vars: Record<string, string>, port?: number) =>
    serveWorkerd(
      project,
      'worker.js',
      {
        compatibilityDate: wrangler.compatibility_date,
        services: `(name = "store", disk = (path = ${JSON.stringify(path.join(project, 'store'))}, writable = true)),
    (name = "loopback", network = (allow = ["local"])),`,
        worker: `
  bindings = [
    ${Object.entries({ ...wrangler.vars, ...vars })
      .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)}),`)
      .join('\n    ')}
    ${objects.map((b) => `(name = "${b.name}", durableObjectNamespace = "${b.class_name}"),`).join('\n    ')}
  ],
  durableObjectNamespaces = [
    ${objects
      .map(
        (b) =>
          `(className = "${b.class_name}", uniqueKey = "test-${b.class_name}", enableSql = ${sqlite.has(b.class_name)}),`,
      )
      .join('\n    ')}
  ],
  durableObjectStorage = (localDisk = "store"),
  globalOutbound = "loopback",`,
      },
      port,
    );
}

/** The JSON `bundle`, served by workerd, answers `GET /` with; throws when it does not answer 200. */
export async function answerOfWorkerd(dir: string, bundle: string): Promise<unknown> {
  const { port, stop, log } = await serveWorkerd(dir, bundle);
  try {
    const res = await fetch(`http://127.0.0.1:${port}/`);
    if (res.status !== 200) throw new Error(`workerd answered ${res.status}: ${await res.text()}\n${log()}`);
    return await res.json();
  } finally {
    await stop();
  }
}

/**
 * What `html`, the index page of `dir` served on 127.0.0.1 (a secure
 * context: Web Crypto is there), puts in `window.results` in headless Chromium.
 */
export async function resultsInChromium(dir: string, html: string): Promise<unknown> {
  writeFileSync(path.join(dir, 'index.html'), html);
  const server = await serveStatic(dir);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await page
      .waitForFunction(() => 'results' in window, undefined, { timeout: 20_000 })
      .catch(() => {
        throw new Error(`the page set no results: ${errors.join('; ')}`);
      });
    return await page.evaluate(() => (window as unknown as { results: unknown }).results);
  } finally {
    await browser.close();
    await server.close();
  }
}
