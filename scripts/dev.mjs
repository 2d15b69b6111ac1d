// `npm run dev`: the API team's edit loop. Watches openapi/, rebuilds what a
// change touches (the build's own steps and cache, scripts/build.mjs), serves
// the rendered docs on 127.0.0.1 and reloads the open page when they change,
// and keeps the Prism mocks and the sandbox running on the new bundles.
// The docs come first after an edit; lint, types, validators and compile
// follow, and their problems are printed without stopping the watcher.
//   node scripts/dev.mjs [--port PORT] [--sandbox-port PORT]
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createBuild, describeTimings } from './build.mjs';
import { bundle } from './bundle.mjs';
import { docs } from './docs.mjs';
import { APIS, MOCKED_APIS, sourceOf } from './lib/apis.mjs';
import { outRoot, ROOT } from './lib/paths.mjs';
import { toolAbort } from './lib/run.mjs';
import { mockDocumentOf, mockPortOf, startPrism } from './lib/prism.mjs';
import { serveStatic } from './lib/serve-static.mjs';

const USAGE = `Usage: npm run dev -- [--port PORT] [--sandbox-port PORT]
  --port PORT          the docs on http://127.0.0.1:PORT (default 4000, or DEV_PORT; 0: any free port)
  --sandbox-port PORT  the sandbox (default 4020, or SANDBOX_PORT; 0: any free port)
The mocks listen on MOCK_V2_PORT (4010) and MOCK_PARTNER_PORT (4011).`;

function portOption(value, fallback, name) {
  const raw = value ?? fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number (0-65535), not "${raw}"\n${USAGE}`);
  return port;
}

const out = outRoot([]);
const log = (line) => console.log(`[dev] ${line}`);
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)}s`;

// The reload channel: server-sent events, and a script added to each page as
// it is served (the files in generated/docs stay as the build wrote them).
const listeners = new Set();
const RELOAD = `<script>new EventSource('/__dev/events').addEventListener('reload', () => location.reload());</script>`;
function handleEvents(req, res) {
  if (req.url !== '/__dev/events') return false;
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
  res.write(': connected\n\n');
  listeners.add(res);
  req.on('close', () => listeners.delete(res));
  return true;
}
const reloadPages = () => listeners.forEach((res) => res.write('event: reload\ndata: docs\n\n'));
// Before the last </body>: Redoc's inlined scripts come earlier in the page.
const withReload = (html) => {
  const at = html.lastIndexOf('</body>');
  return at === -1 ? html + RELOAD : html.slice(0, at) + RELOAD + html.slice(at);
};

/** The text of each API's bundle, to tell which ones an edit changed. */
const readBundles = async () =>
  Object.fromEntries(await Promise.all(APIS.map(async (api) => [api.name, await readFile(path.join(out, 'openapi', `${api.name}.json`), 'utf8').catch(() => '')])));

/**
 * The APIs an edit of these files (relative to openapi/) touches: those whose
 * root reaches an edited file through $refs, however indirectly (the
 * sandbox's sources borrow partner and v2 schemas). Null means all of them.
 */
async function apisTouchedBy(files) {
  if (files.includes(null)) return null;
  const sources = path.join(ROOT, 'openapi');
  const edited = new Set(files.map((f) => path.join(sources, f)));
  const refs = async (file) => {
    const text = await readFile(file, 'utf8').catch(() => '');
    return [...text.matchAll(/\$ref['"]?:\s*['"]?([^'"#\s]+)/g)].map(([, ref]) => path.resolve(path.dirname(file), ref));
  };
  const touched = [];
  for (const api of APIS) {
    const seen = new Set();
    const queue = [path.join(ROOT, sourceOf(api))];
    while (queue.length) {
      const file = queue.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      queue.push(...(await refs(file)));
    }
    if ([...edited].some((file) => seen.has(file))) touched.push(api.name);
  }
  return touched;
}

/** The Prism mocks, one per mocked API; `restart(names)` restarts those. */
function mocks() {
  const running = new Map();
  async function start(api) {
    const document = mockDocumentOf(api.name, out);
    try {
      // Prism takes seconds to start, many more on a busy machine.
      running.set(api.name, await startPrism({ document, port: mockPortOf(api), timeoutMs: 120_000 }));
      log(`${api.title} mock: ${running.get(api.name).url}`);
    } catch (err) {
      console.error(`[dev] the ${api.name} mock did not start (${err.message}); it is tried again after the next edit of its sources`);
    }
  }
  // One restart at a time, so two edits never start two mocks on one port.
  let queue = Promise.resolve();
  const restartOne = async (api) => {
    await running.get(api.name)?.stop();
    running.delete(api.name);
    await start(api);
  };
  return {
    start: () => Promise.all(MOCKED_APIS.map(start)),
    restart: (names) => (queue = queue.then(() => Promise.all(MOCKED_APIS.filter((api) => names.includes(api.name)).map(restartOne)))),
    stop: () => queue.then(() => Promise.all([...running.values()].map((m) => m.stop()))),
  };
}

/** The sandbox from the compiled package; a restart keeps its port and credentials. */
function sandbox(port) {
  let child = null;
  let args = ['--port', String(port)];
  async function start() {
    const cli = path.join(out, 'lib', 'src', 'cli', 'index.js');
    child = spawn(process.execPath, [cli, 'sandbox', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const me = child;
    let text = '';
    me.stderr.on('data', (d) => process.stderr.write(`[sandbox] ${d}`));
    const started = await new Promise((resolve) => {
      me.stdout.on('data', (d) => {
        text += d;
        if (/Ctrl-C stops it/.test(text)) resolve(true);
      });
      me.once('exit', () => resolve(false));
    });
    if (!started) return console.error(`[dev] the sandbox did not start (${text.trim() || 'no output'}); it is tried again after the next rebuild`);
    const url = /listening on (\S+)/.exec(text)[1];
    const key = /X-Auth-Key: (\S+)/.exec(text)[1];
    const token = /Bearer (\S+)/.exec(text)[1];
    args = ['--port', new URL(url).port, '--auth-key', key, '--access-token', token];
    log(`sandbox: ${url}  X-Auth-Key: ${key}  Bearer ${token}  (state resets on each rebuild)`);
  }
  async function stop() {
    const me = child;
    child = null;
    if (!me || me.exitCode !== null || me.signalCode !== null) return;
    const exited = new Promise((resolve) => me.once('exit', resolve));
    me.kill('SIGTERM');
    await exited;
  }
  return { start, stop, restart: () => stop().then(start) };
}

async function main() {
  const { values } = parseArgs({ options: { port: { type: 'string' }, 'sandbox-port': { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help) return console.log(USAGE);
  const port = portOption(values.port, process.env.DEV_PORT || 4000, '--port');
  const sandboxPort = portOption(values['sandbox-port'], process.env.SANDBOX_PORT || 4020, '--sandbox-port');

  const build = await createBuild(out);
  const report = (err) => console.error(`[dev] problem in ${err.step ?? 'build'} (the watcher goes on; fix it and save):\n${err.message}`);
  const first = performance.now();
  const initial = await build.all({ onError: report });
  log(`build: ${describeTimings(initial.timings)}; ${seconds(first)}`);

  const site = await serveStatic(path.join(out, 'docs'), { port, handle: handleEvents, html: withReload }).catch((err) => {
    throw new Error(err.code === 'EADDRINUSE' ? `port ${port} is in use; choose another with --port or DEV_PORT` : err.message);
  });
  const servers = { mocks: mocks(), sandbox: sandbox(sandboxPort) };
  await Promise.all([servers.mocks.start(), servers.sandbox.start()]);
  log(`docs: ${site.url}/ (reload on change)`);

  // An edit runs the quick steps at once (bundle, samples, docs), then the
  // slow ones (lint, types, validators, compile) in the background; a newer
  // edit stops those (their tools are killed) and starts over.
  let running = null;
  let again = false;
  let docsFailed = false;
  // A stopped compile leaves generated/lib half written: restart once it is whole.
  let compileStale = false;
  let edited = [];
  let tail = null;
  async function rebuild() {
    const start = performance.now();
    if (tail) {
      tail.controller.abort();
      await tail.done;
    }
    const files = edited;
    edited = [];
    const before = await readBundles();
    try {
      const only = await apisTouchedBy(files);
      await build.step('bundle', (o) => bundle(o, { only: only ?? undefined }));
    } catch (err) {
      // Bundled again with the next edit, whichever file that touches.
      edited.push(...files);
      return report(err);
    }
    const after = await readBundles();
    const changed = APIS.filter((api) => before[api.name] !== after[api.name]).map((api) => api.name);
    // The docs first: only the pages of the APIs whose bundle changed.
    try {
      await build.step('samples');
      // After a failed render every page is rendered again.
      await build.step('docs', (o) => docs(o, { only: docsFailed ? undefined : changed }));
      docsFailed = false;
      reloadPages();
      log(`docs updated (${changed.join(', ') || 'no bundle changed'}) in ${seconds(start)}`);
    } catch (err) {
      docsFailed = true;
      report(err);
    }
    // The mocks and the sandbox read the bundles when they start. The
    // sandbox is back before the slow steps (compile rewrites its code),
    // and restarted again if compile ran.
    const mocksRestarted = servers.mocks.restart(changed);
    if (changed.length && !compileStale) await servers.sandbox.restart();
    const controller = new AbortController();
    const done = toolAbort
      .run(controller.signal, () => build.all({ onError: (err) => controller.signal.aborted || report(err) }))
      .then(async (rest) => {
        await mocksRestarted;
        if (controller.signal.aborted) {
          compileStale ||= rest.timings.some(([name]) => name === 'compile');
          return;
        }
        if (compileStale || rest.timings.some(([name, , ran]) => name === 'compile' && ran)) {
          compileStale = false;
          await servers.sandbox.restart();
        }
        log(`rebuilt in ${seconds(start)}: ${describeTimings(rest.timings)}`);
      })
      .catch(report);
    tail = { controller, done };
    done.finally(() => {
      if (tail?.done === done) tail = null;
    });
  }
  function schedule() {
    if (running) return void (again = true);
    running = rebuild()
      .catch(report)
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          schedule();
        }
      });
  }
  let timer = null;
  const watcher = watch(path.join(ROOT, 'openapi'), { recursive: true }, (event, file) => {
    edited.push(file);
    clearTimeout(timer);
    timer = setTimeout(schedule, 50);
  });
  log('watching openapi/ (Ctrl-C stops everything)');

  const stop = async () => {
    watcher.close();
    tail?.controller.abort();
    await Promise.allSettled([running, tail?.done, servers.mocks.stop(), servers.sandbox.stop(), site.close()]);
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  console.error(`error: ${err.message}`);
  process.exit(1);
});
