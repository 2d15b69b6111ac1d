// `npm run dev`: the API team's edit loop. Watches openapi/ and src/, rebuilds what a
// change touches (the build's own steps, scripts/lib/steps.mjs, and its cache for all but the
// bundle, scripts/build.mjs; the changed sources, scripts/lib/dev-sources.mjs), serves
// the rendered docs on 127.0.0.1 and reloads the open page when they change,
// and keeps the Prism mocks and the sandbox running on the new bundles
// (scripts/lib/dev-servers.mjs). The docs come first after an edit (with the
// validators their Try it sandbox bundles); lint, types and compile follow,
// and their problems are printed
// without stopping the watcher. A save under src/ compiles and restarts the
// sandbox. It owns generated/ while it runs: every build it runs waits its
// turn in one queue, `npm run build` in this checkout among them
// (scripts/lib/dev-handover.mjs). SIGINT, SIGTERM, or the end of the process
// that started it, stops everything it started.
//   node scripts/dev.mjs [--port PORT] [--sandbox-port PORT] [--mock-v2-port PORT] [--mock-partner-port PORT]
import { watch } from 'chokidar';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildKeepingCommitted, createBuild, describeTimings } from './build.mjs';
import { bundle } from './bundle.mjs';
import { docs } from './docs.mjs';
import { APIS, MOCKED_APIS } from './lib/apis.mjs';
import { devMocks, devSandbox } from './lib/dev-servers.mjs';
import { devHandover } from './lib/dev-handover.mjs';
import { apisTouchedBy, changedFiles, readSources } from './lib/dev-sources.mjs';
import { outRoot, ROOT } from './lib/paths.mjs';
import { toolAbort } from './lib/run.mjs';
import { serveStatic } from './lib/serve-static.mjs';
import { buildSteps, inOrder } from './lib/steps.mjs';

const mockOption = (api) => `mock-${api.name}-port`;
const USAGE = `Usage: npm run dev -- [--port PORT] [--sandbox-port PORT] ${MOCKED_APIS.map((api) => `[--${mockOption(api)} PORT]`).join(' ')}
  --port PORT               the docs on http://127.0.0.1:PORT (default 4000, or DEV_PORT)
  --sandbox-port PORT       the sandbox (default 4020, or SANDBOX_PORT)
${MOCKED_APIS.map((api) => `  --${`${mockOption(api)} PORT`.padEnd(23)} the ${api.name} Prism mock (default ${api.mockPort}, or ${api.mockPortEnv})`).join('\n')}
Each port may be 0 for any free one; the addresses are printed once they listen.`;

/** A port from its option, else its environment variable, else its default. */
function portOption(value, env, fallback, option) {
  const [raw, from] =
    value !== undefined ? [value, `--${option}`] : process.env[env] ? [process.env[env], env] : [fallback, 'default'];
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${from} must be a port number (0-65535, 0 for any free one), not "${raw}"\n${USAGE}`);
  return port;
}

const out = outRoot([]);
// The steps that bring the docs up to date, run first after a save, in their
// order (scripts/lib/steps.mjs); the others run after them in the background.
const STEPS = buildSteps(out);
const QUICK_STEPS = inOrder(
  STEPS,
  Object.keys(STEPS).filter((name) => STEPS[name].quick),
);
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

/** The text of each API's bundle, to tell which ones an edit changed. */
const readBundles = async () =>
  Object.fromEntries(
    await Promise.all(
      APIS.map(async (api) => [
        api.name,
        await readFile(path.join(out, 'openapi', `${api.name}.json`), 'utf8').catch(() => ''),
      ]),
    ),
  );

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        'sandbox-port': { type: 'string' },
        ...Object.fromEntries(MOCKED_APIS.map((api) => [mockOption(api), { type: 'string' }])),
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    throw new Error(`${err.message}\n${USAGE}`);
  }
  if (values.help) return console.log(USAGE);
  const port = portOption(values.port, 'DEV_PORT', 4000, 'port');
  const sandboxPort = portOption(values['sandbox-port'], 'SANDBOX_PORT', 4020, 'sandbox-port');
  const mockPorts = Object.fromEntries(
    MOCKED_APIS.map((api) => [
      api.name,
      portOption(values[mockOption(api)], api.mockPortEnv, api.mockPort, mockOption(api)),
    ]),
  );

  // Fires when dev stops: tools under way are killed (runTool), and no mock
  // or sandbox starts after it.
  const shutdown = new AbortController();
  const { signal } = shutdown;
  const warn = (line) => signal.aborted || console.error(`[dev] ${line}`);
  const servers = {
    mocks: devMocks({ out, ports: mockPorts, signal, log, warn }),
    sandbox: devSandbox({ out, port: sandboxPort, signal, log, warn }),
  };
  let site = null;
  const watchers = [];
  let handover = null;
  let tail = null;
  let stopping = null;
  // Every build dev runs goes through this queue, one after the other: the
  // first build, each save's rebuild, a change under src/, and a build that
  // `npm run build` hands over. A rebuild's slow steps (`tail`) run after
  // its turn; the next turn stops them first.
  let queue = Promise.resolve();
  const serially = (fn) => {
    const turn = queue.then(fn);
    queue = turn.catch(() => {});
    return turn;
  };
  function stopAll(why) {
    if (stopping) {
      // A second signal: no more waiting (the children are killed on exit, scripts/lib/dev-servers.mjs).
      log(`${why} again: exiting now`);
      process.exit(130);
    }
    log(`${why}: stopping the watcher, the docs server, the mocks and the sandbox`);
    handover?.remove();
    shutdown.abort();
    tail?.controller.abort();
    const closing = [
      ...watchers.map((w) => w.close()),
      queue,
      tail?.done,
      servers.mocks.stop(),
      servers.sandbox.stop(),
      site?.close(),
    ];
    stopping = Promise.allSettled(closing).then(() => {
      log('stopped');
      process.exit(0);
    });
  }
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(name, () => stopAll(name));
  // npm runs the script through `sh -c`, and on SIGTERM npm signals that
  // shell, which ends without passing the signal on: dev learns of it only by
  // being left an orphan, its parent process changing.
  const parent = process.ppid;
  setInterval(
    () => process.ppid !== parent && !stopping && stopAll('the process that started npm run dev ended'),
    250,
  ).unref();

  let build = await createBuild(out);
  // What the bundles are made from: read before the first build bundles it.
  let bundledFrom = await readSources();
  const report = (err) => {
    if (signal.aborted) return;
    const next =
      err.step === 'compile'
        ? 'the watcher goes on, the sandbox keeps the last good generated/lib; fix it, then save a file under src/ or openapi/ to compile again'
        : 'the watcher goes on; fix it and save';
    console.error(`[dev] problem in ${err.step ?? 'build'} (${next}):\n${err.message}`);
  };

  // The docs server and dev's record first, so that a build handed over
  // during the first one waits for it in the queue.
  handover = devHandover((options, say) => serially(() => handedBuild(options, say)));
  site = await serveStatic(path.join(out, 'docs'), {
    port,
    handle: (req, res) => handleEvents(req, res) || handover.handle(req, res),
    html: withReload,
  }).catch((err) => {
    throw new Error(
      err.code === 'EADDRINUSE'
        ? `port ${port} is in use; choose another with --port or DEV_PORT (0 for any free one)`
        : err.message,
    );
  });
  handover.record(site.url);
  await serially(async () => {
    const first = performance.now();
    const initial = await toolAbort.run(signal, () => build.all({ onError: report }));
    if (signal.aborted) return;
    log(`build: ${describeTimings(initial.timings)}; ${seconds(first)}`);
    await Promise.all([servers.mocks.start(), servers.sandbox.start()]);
  });
  if (signal.aborted) return;
  log(`docs: ${site.url}/ (reload on change)`);

  /**
   * Runs lint, types and compile in the background, after the
   * quick steps of a save or alone after a change under src/. A newer turn
   * of the queue stops them; the sandbox restarts when compile rewrote its code.
   */
  function startSlowSteps(start, mocksRestarted) {
    const controller = new AbortController();
    // Without the quick steps: a save during this tail would have them run
    // again in full and stopped halfway by the rebuild of that save.
    const slowSteps = () =>
      build.all({ onError: (err) => controller.signal.aborted || report(err), skip: QUICK_STEPS });
    const done = toolAbort
      .run(controller.signal, slowSteps)
      .then(async (rest) => {
        if (controller.signal.aborted) return;
        await mocksRestarted;
        if (
          rest.timings.some(([name, , ran]) => name === 'compile' && ran) &&
          !rest.errors.some((err) => err.step === 'compile')
        )
          await servers.sandbox.restart();
        log(`rebuilt in ${seconds(start)}: ${describeTimings(rest.timings)}`);
      })
      .catch(report);
    tail = { controller, done };
    done.finally(() => {
      if (tail?.done === done) tail = null;
    });
  }

  // An edit runs the quick steps at once (bundle, samples, validators, docs),
  // then the slow ones (lint, types, compile) in the background; a newer
  // edit stops those (their tools are killed) and starts over. A stopped or
  // failed compile leaves generated/lib whole (scripts/compile.mjs).
  let docsFailed = false;
  async function rebuild() {
    const start = performance.now();
    const sources = await readSources();
    const files = changedFiles(bundledFrom, sources);
    const before = await readBundles();
    // Every API when a bundle is missing (a build stopped halfway).
    const missing = Object.values(before).includes('');
    if (!files.length && !missing) return;
    // The last save's slow steps are stopped but not waited for: the docs
    // come first. They write none of what the quick steps write (skip above).
    const stopped = tail;
    stopped?.controller.abort();
    // Each quick step's time, in the log line that says the docs are updated.
    const took = [];
    const timed = async (name, run) => {
      const at = performance.now();
      await run();
      took.push(`${name} ${seconds(at)}`);
    };
    try {
      // Not through the build cache: it would record the sources as they are
      // when the step starts, and a save landing before this bundle reads
      // them would then pass for bundled. The next `npm run build` bundles all again.
      const only = missing ? undefined : apisTouchedBy(files, sources);
      await timed('bundle', () =>
        bundle(out, { only }).catch((err) => Promise.reject(Object.assign(err, { step: 'bundle' }))),
      );
    } catch (err) {
      // The files stay unbundled until the next save.
      return report(err);
    }
    bundledFrom = sources;
    const after = await readBundles();
    const changed = APIS.filter((api) => before[api.name] !== after[api.name]).map((api) => api.name);
    // The docs first: only the pages of the APIs whose bundle changed.
    try {
      // The quick steps after the bundle (run above, as its own), through the build's record.
      for (const name of QUICK_STEPS.filter((quick) => quick !== 'bundle')) {
        // After a failed render every page is rendered again.
        const own = name === 'docs' ? (o) => docs(o, { only: docsFailed ? undefined : changed }) : undefined;
        await timed(name, () => build.step(name, own));
      }
      docsFailed = false;
      reloadPages();
      log(`docs updated (${changed.join(', ') || 'no bundle changed'}) in ${seconds(start)}: ${took.join(', ')}`);
    } catch (err) {
      docsFailed = true;
      report(err);
    }
    // A compile the stopped steps had nearly done still swaps in its
    // generated/lib, which the sandbox must start from.
    await stopped?.done;
    if (signal.aborted) return;
    // The mocks and the sandbox read the bundles when they start. The
    // sandbox is back before the slow steps, and restarted again if compile
    // rewrote its code.
    const mocksRestarted = servers.mocks.follow(changed);
    if (changed.length) await servers.sandbox.restart();
    if (signal.aborted) return;
    startSlowSteps(start, mocksRestarted);
  }

  /** A change under src/: the slow steps again (compile among them), after the last ones stopped. */
  async function recompile() {
    const stopped = tail;
    stopped?.controller.abort();
    await stopped?.done;
    if (signal.aborted) return;
    log('src/ changed: compiling');
    startSlowSteps(performance.now());
  }

  /**
   * A build `npm run build` handed over: the build it would have run, with
   * the committed folders put back if it fails (scripts/build.mjs); then
   * the open pages reload, the mocks of changed bundles and the sandbox restart.
   */
  async function handedBuild(options, say) {
    if (signal.aborted) throw new Error('npm run dev is stopping; run npm run build again once it has');
    const start = performance.now();
    say(
      `[dev] build handed over by npm run build${options.force ? ' (--force)' : ''}${options.only ? ` (--only ${options.only.join(',')})` : ''}`,
    );
    const stopped = tail;
    stopped?.controller.abort();
    await stopped?.done;
    const sources = await readSources();
    const before = await readBundles();
    const onError = (err) =>
      say(`[dev] problem in ${err.step ?? 'build'} (the build goes on with the other steps)`, { error: true });
    const result = await toolAbort.run(signal, () => buildKeepingCommitted(out, { ...options, onError }));
    // Its records, written by the handed build, are read again.
    build = await createBuild(out);
    if (!result.errors.length && (!options.only || options.only.includes('bundle'))) bundledFrom = sources;
    if (!result.errors.length && (!options.only || options.only.includes('docs'))) docsFailed = false;
    for (const line of result.lines) say(line);
    for (const line of result.errors) say(line, { error: true });
    const after = await readBundles();
    const changed = APIS.filter((api) => before[api.name] !== after[api.name]).map((api) => api.name);
    const mocked = MOCKED_APIS.filter((api) => changed.includes(api.name)).map((api) => api.name);
    reloadPages();
    await servers.mocks.restart(mocked);
    await servers.sandbox.restart();
    const restarted = mocked.length
      ? `the ${mocked.join(' and ')} mock${mocked.length > 1 ? 's' : ''} and the sandbox`
      : 'the sandbox';
    say(`[dev] ran the handed build in ${seconds(start)}: pages reloaded; ${restarted} restarted on what it wrote`);
    log(
      `ran a build handed over by npm run build (${result.errors.length ? 'failed' : 'passed'}) in ${seconds(start)}`,
    );
    // The slow steps of a save it stopped, which `--only` may have left out: what is done already is skipped.
    if (stopped && !signal.aborted) startSlowSteps(start);
    return result.errors.length ? 1 : 0;
  }

  let rebuildQueued = false;
  function schedule() {
    if (signal.aborted || rebuildQueued) return;
    // Saves while this rebuild waits its turn are read by it: it compares every file's text.
    rebuildQueued = true;
    serially(() => {
      rebuildQueued = false;
      return toolAbort.run(signal, rebuild);
    }).catch(report);
  }
  // chokidar, not Node's recursive fs.watch: that loses a file an editor
  // saves by writing a new file and renaming it over the old one (vim,
  // JetBrains' safe write, sed -i), and every later save would go unseen.
  const watchFolder = (folder, onChange) => {
    let timer = null;
    const watcher = watch(path.join(ROOT, folder), { ignoreInitial: true });
    watcher.on('all', () => {
      clearTimeout(timer);
      // Longer than chokidar's 50 ms per file in which a second change event
      // is dropped: the rebuild then starts after, and reads, any such save
      // (it compares every file's text, scripts/lib/dev-sources.mjs).
      timer = setTimeout(onChange, 100);
    });
    watcher.on('error', (err) =>
      warn(`watching ${folder}/ failed (${err.message}); saves may go unseen until npm run dev is started again`),
    );
    watchers.push(watcher);
    return new Promise((resolve) => watcher.once('ready', resolve));
  };
  await Promise.all([
    watchFolder('openapi', schedule),
    // Compile's own record tells whether src/ changed since it last passed.
    watchFolder('src', () => signal.aborted || serially(recompile).catch(report)),
  ]);
  log('watching openapi/ and src/ (Ctrl-C stops everything)');
}

main().catch((err) => {
  console.error(`error: ${err.message}`);
  process.exit(1);
});
