// npm run bench: the package's performance figures in one table, against
// their targets. Loopback only; about five minutes.
//
//   node scripts/bench.mjs [--only mock,scale,delivery,clients,webhooks,conformance,build,package,dev] [--duration SECONDS] [--rounds N] [--out FILE]
//
// It reports and never fails on a missed target; it exits 1 only when a figure
// could not be measured (and says which and why).
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchBuild } from './lib/bench/build.mjs';
import { benchClients } from './lib/bench/clients.mjs';
import { benchConformance } from './lib/bench/conformance.mjs';
import { benchDelivery } from './lib/bench/delivery.mjs';
import { benchDev } from './lib/bench/dev.mjs';
import { benchMock } from './lib/bench/mock.mjs';
import { benchPackage } from './lib/bench/package.mjs';
import { MeasureError } from './lib/bench/proc.mjs';
import {
  buildRows,
  clientRows,
  conformanceRows,
  deliveryRows,
  devRows,
  machine,
  mockRows,
  packageRows,
  scaleRows,
  table,
  webhookRows,
} from './lib/bench/report.mjs';
import { benchScale } from './lib/bench/scale.mjs';
import { benchWebhooks } from './lib/bench/webhooks.mjs';

const USAGE = `Usage: node scripts/bench.mjs [--only PARTS] [--duration SECONDS] [--rounds N] [--out FILE]

  --only PARTS        comma-separated, of: mock, scale, delivery, clients, webhooks, conformance, build, package, dev (default: all)
  --duration SECONDS  measured time of each load case of "mock" and "scale" per round, after a 1 s warm-up in the first, and of the creates of "delivery" (default 2)
  --rounds N          interleaved rounds of those load cases, and the saves "dev" times; each figure is the median of its rounds (default 5)
  --out FILE          also write the table, the raw figures and the machine as JSON
  --help              this text`;

const PARTS = {
  mock: {
    title: 'Prism vs the sandbox at 1,000 stored: CPU per request of each operation',
    run: benchMock,
    rows: mockRows,
  },
  scale: {
    title: 'sandbox left running: a list at 10,000 stored vs a Prism GET, RSS at 100,000, --state creates and restart',
    run: benchScale,
    rows: scaleRows,
  },
  delivery: {
    title:
      'webhook delivery under a create load, healthy and with a receiver failing 1 in 10: delivered per second, delay, drain',
    run: benchDelivery,
    rows: deliveryRows,
  },
  clients: { title: 'typed clients vs raw fetch', run: benchClients, rows: clientRows },
  webhooks: { title: 'webhook verification and parsing vs raw HMAC', run: benchWebhooks, rows: webhookRows },
  conformance: { title: 'conformance runner against the sandbox', run: benchConformance, rows: conformanceRows },
  build: { title: 'forced build, each step alone, no-op rebuild', run: benchBuild, rows: buildRows },
  package: { title: 'tarball, dependencies, consumer type-check', run: benchPackage, rows: packageRows },
  dev: { title: 'npm run dev: a saved edit of the partner sources → the served page', run: benchDev, rows: devRows },
};

function usageError(message) {
  console.error(`error: ${message}\n\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      only: { type: 'string' },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  }));
} catch (err) {
  usageError(err.message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const only =
  values.only === undefined
    ? Object.keys(PARTS)
    : values.only
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
const unknown = only.filter((p) => !Object.hasOwn(PARTS, p));
if (unknown.length || only.length === 0)
  usageError(`--only takes ${Object.keys(PARTS).join(', ')}; not "${values.only}"`);
const seconds = values.duration === undefined ? 2 : Number(values.duration);
if (!(seconds >= 1 && seconds <= 60)) usageError(`--duration must be 1 to 60 seconds, not "${values.duration}"`);
const rounds = values.rounds === undefined ? 5 : Number(values.rounds);
if (!(Number.isInteger(rounds) && rounds >= 1 && rounds <= 9))
  usageError(`--rounds must be a whole number from 1 to 9, not "${values.rounds}"`);
const out = values.out === undefined ? null : path.resolve(values.out);

const log = (line) => process.stderr.write(`${line}\n`);
const host = machine();
log(
  `bench: ${only.join(', ')} on ${host.cpu} (${host.cores} cores, ${host.memoryText}), Node ${host.node}; load average ${host.loadAverageAtStart.join(' ')}`,
);

const started = performance.now();
const results = {};
const rows = [];
const errors = [];
for (const name of Object.keys(PARTS).filter((p) => only.includes(p))) {
  const part = PARTS[name];
  const t0 = performance.now();
  log(`${name}: ${part.title}`);
  try {
    results[name] = await part.run({ seconds, warmup: 1, rounds, log });
    rows.push(...part.rows(results[name]));
    log(`${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } catch (err) {
    const message = err instanceof MeasureError ? err.message : (err?.stack ?? String(err));
    errors.push({ part: name, message });
    log(`${name}: could not be measured: ${message}`);
  }
}
const elapsedMs = performance.now() - started;
host.loadAverageAtEnd = os.loadavg().map((l) => Number(l.toFixed(2)));

const text = table(rows);
console.log(
  `\nMachine: ${host.cpu}, ${host.cores} cores, ${host.memoryText}, Node ${host.node}, ${host.platform}; ${host.date}; ` +
    `load average ${host.loadAverageAtStart.join(' ')} at start, ${host.loadAverageAtEnd.join(' ')} at end; ${(elapsedMs / 1000).toFixed(0)} s in all.\n`,
);
console.log(text);
const missed = rows.filter((r) => r.pass === false);
console.log(
  `\n${rows.filter((r) => r.pass !== null).length} targets: ${missed.length} missed${missed.length ? ` (${missed.map((r) => `${r.part}: ${r.measure}`).join('; ')})` : ''}.`,
);

if (out) {
  await writeFile(
    out,
    `${JSON.stringify({ machine: host, options: { only, duration: seconds, rounds, warmup: 1 }, elapsedMs, table: text, rows, results, errors }, null, 2)}\n`,
  );
  log(`wrote ${out}`);
}
if (errors.length) {
  console.error(`\nerror: ${errors.length} part(s) could not be measured:`);
  for (const e of errors) console.error(`- ${e.part}: ${e.message}`);
  process.exit(1);
}
// Open handles (a keep-alive socket of fetch) must not hold the figures back.
process.exit(0);
