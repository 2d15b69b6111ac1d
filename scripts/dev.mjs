// `npm run dev`: the API team's edit loop (guides/contract.md, "The edit
// loop"). Serves the rendered docs with a reload channel, keeps the Prism
// mocks and the sandbox running (scripts/lib/dev-servers.mjs), and runs the
// build's steps on every save under openapi/ and src/: first those that bring
// the docs up to date, then the slower ones in the background.
import { watch } from 'chokidar';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { breakingAgainstRelease, DEV_PID_FILE, describeTimings, runningDev, runSteps } from './build.mjs';
import { MOCKED_APIS } from './lib/apis.mjs';
import { devMocks, devSandbox } from './lib/dev-servers.mjs';
import { apisTouchedBy, changedFiles, readSources } from './lib/dev-sources.mjs';
import { GENERATED, ROOT } from './lib/paths.mjs';
import { inBackground, main } from './lib/run.mjs';
import { serveStatic } from './lib/serve-static.mjs';

// Each server (the docs, the sandbox, a Prism mock per API): its port's option, environment variable and default.
const PORTS = [
  ['docs', 'port', 'DEV_PORT', 4000],
  ['sandbox', 'sandbox-port', 'SANDBOX_PORT', 4020],
  ...MOCKED_APIS.map((api) => [api.name, `mock-${api.name}-port`, api.mockPortEnv, api.mockPort]),
];
const USAGE = `Usage: npm run dev -- ${PORTS.map(([, option]) => `[--${option} PORT]`).join(' ')}
${PORTS.map(([, option, env, fallback]) => `  --${`${option} PORT`.padEnd(23)} default ${fallback}, or ${env}`).join('\n')}
--port serves the docs. Each port may be 0 for any free one; the addresses are printed once they listen.`;

/** The port of each server from its option, else its environment variable, else its default. */
function portsFrom(argv) {
  let values;
  try {
    const options = Object.fromEntries(PORTS.map(([, option]) => [option, { type: 'string' }]));
    ({ values } = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean' } } }));
  } catch (err) {
    throw new Error(`${err.message}\n${USAGE}`);
  }
  if (values.help) return null;
  const portOf = ([, option, env, fallback]) => {
    const from = values[option] !== undefined ? `--${option}` : process.env[env] ? env : 'default';
    const raw = values[option] ?? (process.env[env] || fallback);
    const port = Number(raw);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new Error(`${from} must be a port number (0-65535, 0 for any free one), not "${raw}"\n${USAGE}`);
    return port;
  };
  return Object.fromEntries(PORTS.map((server) => [server[0], portOf(server)]));
}

const out = GENERATED;
// The steps that bring the docs up to date after a save under openapi/, and
// those that follow in the background.
const QUICK_STEPS = ['bundle', 'samples', 'validators', 'docs'];
const SLOW_STEPS = ['lint-sources', 'lint-bundles', 'release-diff', 'types', 'compile'];
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
const reloadPages = () => {
  for (const res of listeners) res.write('event: reload\ndata: docs\n\n');
};
// Before the last </body>: Redoc's inlined scripts come earlier in the page.
const withReload = (html) => {
  const at = html.lastIndexOf('</body>');
  return at === -1 ? html + RELOAD : html.slice(0, at) + RELOAD + html.slice(at);
};

/**
 * `fn` run one at a time: a call while it runs has it run once more after,
 * which then sees every save made meanwhile. `idle()` resolves once no run
 * is under way or due.
 */
function oneAtATime(fn, onError) {
  let running = null;
  let again = false;
  const loop = async () => {
    do {
      again = false;
      await fn().catch(onError);
    } while (again);
    running = null;
  };
  const call = () => {
    if (running) again = true;
    else running = loop();
  };
  call.idle = () => running ?? Promise.resolve();
  call.busy = () => running !== null;
  return call;
}

function recordPid() {
  const other = runningDev();
  if (other)
    throw new Error(
      `npm run dev (pid ${other}) already runs in this checkout; use it, or stop it (kill ${other}) first`,
    );
  mkdirSync(path.dirname(DEV_PID_FILE), { recursive: true });
  writeFileSync(DEV_PID_FILE, `${process.pid}\n`);
  process.on('exit', () => runningDev() === process.pid && rmSync(DEV_PID_FILE));
}

async function dev() {
  const ports = portsFrom(process.argv.slice(2));
  if (!ports) return console.log(USAGE);
  const { docs: port, sandbox: sandboxPort, ...mockPorts } = ports;
  recordPid();

  // Fires when dev stops: no mock or sandbox starts after it.
  const shutdown = new AbortController();
  const { signal } = shutdown;
  const warn = (line) => signal.aborted || console.error(`[dev] ${line}`);
  const mocks = devMocks({ ports: mockPorts, signal, log, warn });
  const sandbox = devSandbox({ out, port: sandboxPort, signal, log, warn });
  const site = await serveStatic(path.join(out, 'docs'), { port, handle: handleEvents, html: withReload }).catch(
    (err) => {
      throw new Error(
        err.code === 'EADDRINUSE'
          ? `port ${port} is in use; choose another with --port or DEV_PORT (0 for any free one)`
          : err.message,
      );
    },
  );
  let watcher = null;
  function stopAll(why) {
    if (signal.aborted) {
      // A second signal: no more waiting (the children are killed on exit, scripts/lib/dev-servers.mjs).
      log(`${why} again: exiting now`);
      process.exit(130);
    }
    log(`${why}: stopping the watcher, the docs server, the mocks and the sandbox`);
    shutdown.abort();
    const closing = [watcher?.close(), mocks.stop(), sandbox.stop(), site.close()];
    Promise.allSettled(closing).then(() => {
      log('stopped');
      process.exit(0);
    });
  }
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(name, () => stopAll(name));

  const report = (err) => {
    if (signal.aborted) return;
    const next =
      err.step === 'compile'
        ? 'the watcher goes on, the sandbox keeps the last good generated/lib; fix it, then save a file under src/ or openapi/ to compile again'
        : 'the watcher goes on; fix it and save';
    console.error(`[dev] problem in ${err.step ?? 'build'} (${next}):\n${err.message}`);
  };

  // The lints, the release diff, types and compile, after the docs of a save
  // (or compile alone after a save under src/); the sandbox restarts on what
  // compile wrote, or on the last good generated/lib when it is not running.
  const slowSteps = new Set();
  const slow = oneAtATime(async () => {
    const start = performance.now();
    const names = SLOW_STEPS.filter((name) => slowSteps.has(name));
    slowSteps.clear();
    const { timings, results, errors } = await inBackground(() => runSteps(out, names, { onError: report }));
    if (signal.aborted) return;
    const compiled = names.includes('compile') && !errors.some((err) => err.step === 'compile');
    if (compiled || !sandbox.running()) await sandbox.restart();
    // Steps already due again, or due once the docs of a save made meanwhile are made: then not the last word.
    const again = slowSteps.size || quick.busy() ? '; a save came meanwhile, rebuilding again' : '';
    log(`rebuilt in ${seconds(start)}: ${describeTimings(timings)}${again}`);
    const breaking = breakingAgainstRelease(results);
    if (breaking.length) console.log(breaking.join('\n'));
  }, report);

  // What the bundles were made from, and whether every bundle and page is to
  // be made: at first nothing and every one, so the first run builds all.
  let bundledFrom = new Map();
  let makeAll = true;
  const quick = oneAtATime(async () => {
    const sources = await readSources();
    const files = changedFiles(bundledFrom, sources);
    if (!files.length && !makeAll) return;
    // The bundles and pages of the APIs whose sources the save reached.
    const only = makeAll ? undefined : apisTouchedBy(files, sources);
    const { timings, errors, total } = await runSteps(out, QUICK_STEPS, { only, onError: report });
    // A failed bundle leaves the files unbundled until the next save; after any failure every page is made again.
    if (!errors.some((err) => err.step === 'bundle')) bundledFrom = sources;
    makeAll = errors.length > 0;
    if (!errors.length) {
      reloadPages();
      log(
        `docs updated (${only?.join(', ') ?? 'every API'}) in ${(total / 1000).toFixed(1)}s: ${describeTimings(timings)}`,
      );
    }
    // A mock that is running follows its bundle by itself.
    mocks.start(only);
    for (const name of SLOW_STEPS) slowSteps.add(name);
    slow();
  }, report);

  // chokidar, not Node's recursive fs.watch: that loses a file an editor
  // saves by writing a new file and renaming it over the old one (vim,
  // JetBrains' safe write, sed -i), and every later save would go unseen.
  watcher = watch([path.join(ROOT, 'openapi'), path.join(ROOT, 'src')], { ignoreInitial: true });
  let timer = null;
  let srcChanged = false;
  let openapiChanged = false;
  watcher.on('all', (_event, file) => {
    if (file.startsWith(path.join(ROOT, 'src'))) srcChanged = true;
    else openapiChanged = true;
    clearTimeout(timer);
    // Longer than chokidar's 50 ms per file in which a second change event
    // is dropped: the rebuild then starts after, and reads, any such save.
    timer = setTimeout(() => {
      if (signal.aborted) return;
      if (openapiChanged) quick();
      if (srcChanged) {
        log('src/ changed: compiling');
        slowSteps.add('compile');
        slow();
      }
      [srcChanged, openapiChanged] = [false, false];
    }, 100);
  });
  watcher.on('error', (err) =>
    warn(`watching failed (${err.message}); saves may go unseen until npm run dev is started again`),
  );
  await new Promise((resolve) => watcher.once('ready', resolve));
  quick();
  await Promise.all([mocks.start(), quick.idle().then(slow.idle)]);
  if (signal.aborted) return;
  log(`docs: ${site.url}/ (reload on change)`);
  log('watching openapi/ and src/ (Ctrl-C stops everything)');
}

main(dev);
