// Turns the measurements into table rows with targets, and the rows into one
// Markdown table.
import os from 'node:os';

const num = (n, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : 'n/a';
const ms = (v) =>
  !Number.isFinite(v) ? 'n/a' : v >= 1000 ? `${num(v / 1000, 2)} s` : v >= 10 ? `${num(v, 1)} ms` : `${num(v, 2)} ms`;
const mib = (bytes) => `${num(bytes / 1024 / 1024, 0)} MiB`;
const kib = (bytes) => `${num(bytes / 1024, 0)} KiB`;
const weight = (w) => `${kib(w.minified)} minified, ${kib(w.gzipped)} gzipped`;
const times = (r) => (Number.isFinite(r) ? `${num(r, 2)}×` : 'n/a');

/** A row: part, measure, baseline, measured, ratio, target, and pass (true, false or null when no target). */
const row = (part, measure, baseline, measured, ratio = '', target = '', pass = null) => ({
  part,
  measure,
  baseline,
  measured,
  ratio,
  target,
  pass,
});

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    memory: os.totalmem(),
    memoryText: `${num(os.totalmem() / 1024 ** 3, 1)} GiB`,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    date: new Date().toISOString(),
    loadAverageAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

const cpuUs = (x) => `${num(x.cpuMsPerRequest * 1000, 0)} µs`;

export function scaleRows(r) {
  const { prismGet: p, list: l } = r.lists;
  const listRatio = l.cpuMsPerRequest / p.cpuMsPerRequest;
  const { inMemory: m, withState: d, restart } = r.creates;
  return [
    row(
      'scale',
      `${r.lists.listLabel} at ${num(r.listAt)} stored: server CPU per request vs one Prism GET /verifications/{id}`,
      `Prism ${cpuUs(p)}`,
      `sandbox ${cpuUs(l)}, p99 ${ms(l.p99)}`,
      times(listRatio),
      '≤ 5×',
      listRatio <= 5,
    ),
    row(
      'scale',
      `RSS after ${num(r.rssAt)} creates (in memory)`,
      `${mib(r.lists.rssAtList)} at ${num(r.listAt)}`,
      mib(r.lists.rss),
      `${kib((r.lists.rss - r.lists.rssAtList) / (r.rssAt - r.listAt))} per verification`,
      '≤ 600 MiB',
      r.lists.rss <= 600 * 1024 * 1024,
    ),
    row(
      'scale',
      `filling from ${num(r.listAt)} to ${num(r.rssAt)} (creates, 16 connections)`,
      '',
      `${num(r.lists.fillSeconds, 1)} s`,
      `${num((r.rssAt - r.listAt) / r.lists.fillSeconds)} creates/s`,
    ),
    row(
      'scale',
      'POST /verifications with --state (fsync per group of changes): req/s, server CPU per request',
      `in memory ${num(m.reqPerSec)}, ${cpuUs(m)}`,
      `--state ${num(d.reqPerSec)}, ${cpuUs(d)}`,
      `${times(d.reqPerSec / m.reqPerSec)} req/s`,
    ),
    row(
      'scale',
      `restart of a --state file holding ${num(restart.records)} verifications after kill -9 (spawn → port answers)`,
      '',
      `${ms(restart.startupMs)}, ${num(restart.held)} held`,
      '',
      '≤ 2 s, all held',
      restart.startupMs <= 2000 && restart.held === restart.records,
    ),
  ];
}

export function deliveryRows(r) {
  const load = `${num(r.createsPerSec)} creates/s, ${num(r.creates)} per round`;
  return [
    row(
      'delivery',
      `webhooks delivered per second during ${r.seconds} s of creates (16 connections; receiver answers 200 at once)`,
      load,
      `${num(r.deliveredPerSec)}/s`,
      times(r.deliveredPerSec / r.createsPerSec),
    ),
    row(
      'delivery',
      "delay from the event's createdAt to its arrival: p50, p99",
      '',
      `p50 ${ms(r.delayP50Ms)}, p99 ${ms(r.delayP99Ms)}`,
      '',
      'p99 ≤ 5 s',
      r.delayP99Ms <= 5000,
    ),
    row(
      'delivery',
      'queue drained after the load stops (end of load → last arrival)',
      '',
      ms(r.drainMs),
      '',
      '≤ 5 s',
      r.drainMs <= 5000,
    ),
    ...failingDeliveryRows(r.failing, r),
  ];
}

/**
 * The same with a receiver answering 500 to every tenth request: the events
 * answered 200 at once keep the healthy bound, the later event of a
 * verification whose earlier one failed arrives before that retry (nothing
 * is held back), the retried ones within the retry interval + 5 s, and every
 * event arrives in the end.
 */
function failingDeliveryRows(f, healthy) {
  const retryMs = f.retryIntervalSeconds * 1000;
  const retry = `${num(f.retryIntervalSeconds)} s`;
  const setup = `receiver answering 500 to every ${f.failEvery}th request, --retry-interval ${f.retryIntervalSeconds} (each verification created, then opened: 2 events)`;
  const delay = (x) => `p50 ${ms(x.p50Ms)}, p99 ${ms(x.p99Ms)}`;
  const healthyDelay = `healthy receiver: ${delay({ p50Ms: healthy.delayP50Ms, p99Ms: healthy.delayP99Ms })}`;
  const { firstAttempt: first, afterFailed: after, retried } = f;
  return [
    row(
      'delivery',
      `${setup}: delay of the events answered 200 at their first attempt`,
      healthyDelay,
      `${delay(first)} (${num(first.count)} events)`,
      times(first.p99Ms / healthy.delayP99Ms),
      'p99 ≤ 5 s, as healthy',
      first.p99Ms <= 5000,
    ),
    row(
      'delivery',
      'the same: delay of a verification.updated answered 200 at once whose verification.created failed, and how many arrived before that retry',
      healthyDelay,
      `${delay(after)}; ${num(after.beforeTheRetry)} of ${num(after.count)} before the retry`,
      '',
      `p99 < ${retry} (the retry interval): not held back`,
      after.count > 0 && after.p99Ms < retryMs,
    ),
    row(
      'delivery',
      'the same: delay of the events retried',
      `retry interval ${retry}`,
      `${delay(retried)} (${num(retried.count)} events, ${num(retried.moreThanOnce)} failed twice or more)`,
      '',
      `p99 ≤ ${num(f.retryIntervalSeconds + 5)} s (retry interval + 5 s)`,
      retried.count > 0 && retried.p99Ms <= retryMs + 5000,
    ),
    row(
      'delivery',
      'the same: every event delivered in the end (answered 200 once at least)',
      `${num(f.eventsPerSec)} events/s made`,
      `${num(f.delivered)} of ${num(f.events)} (${num(f.failedAttempts)} attempts answered 500); last arrival ${ms(f.drainMs)} after the load`,
      '',
      'all',
      f.delivered >= f.events,
    ),
  ];
}

export function mockRows(r) {
  const rows = [];
  for (const [name, label] of Object.entries(r.labels)) {
    const p = r.prism.cases[name];
    const s = r.sandbox.cases[name];
    const ratio = s.cpuMsPerRequest / p.cpuMsPerRequest;
    const non2xx = (x) => (x.non2xx ? `, ${num(x.non2xx)} non-2xx` : '');
    rows.push(
      row(
        'mock vs sandbox',
        `${label} at ${num(r.stored)} stored: server CPU per request`,
        `Prism ${cpuUs(p)} (${num(p.reqPerSec)} req/s${non2xx(p)})`,
        `sandbox ${cpuUs(s)} (${num(s.reqPerSec)} req/s, p99 ${ms(s.p99)}${non2xx(s)})`,
        times(ratio),
        '≤ 0.50×',
        ratio <= 0.5,
      ),
    );
  }
  const procs = (x) => `${x.processes.length} process${x.processes.length === 1 ? '' : 'es'}`;
  const startup = r.sandbox.startupMs / Math.max(r.prism.v2.startupMs, r.prism.partner.startupMs);
  rows.push(
    row(
      'mock vs sandbox',
      'start-up (spawn → port answers)',
      `Prism v2 ${ms(r.prism.v2.startupMs)}, partner ${ms(r.prism.partner.startupMs)}`,
      `sandbox ${ms(r.sandbox.startupMs)} (both APIs)`,
      times(startup),
    ),
  );
  rows.push(
    row(
      'mock vs sandbox',
      'peak RSS (VmHWM of the process tree)',
      `Prism v2 ${mib(r.prism.v2.peakRss)}, partner ${mib(r.prism.partner.peakRss)} (${procs(r.prism.v2)} each)`,
      `sandbox ${mib(r.sandbox.peakRss)} (${procs(r.sandbox)}, both APIs)`,
      `${times(r.sandbox.peakRss / (r.prism.v2.peakRss + r.prism.partner.peakRss))} of both`,
    ),
  );
  return rows;
}

export function clientRows(r) {
  const us = r.usPerRequest;
  return [
    row(
      'clients',
      `createV2Client GET: µs/request (${num(r.requests)} sequential)`,
      `raw fetch ${num(us.v2Raw, 1)}`,
      `client ${num(us.v2Client, 1)}`,
      times(r.ratio.v2),
      '≤ 1.10×',
      r.ratio.v2 <= 1.1,
    ),
    row(
      'clients',
      `createPartnerClient GET: µs/request (${num(r.requests)} sequential)`,
      `raw fetch ${num(us.partnerRaw, 1)}`,
      `client ${num(us.partnerClient, 1)}`,
      times(r.ratio.partner),
      '≤ 1.10×',
      r.ratio.partner <= 1.1,
    ),
  ];
}

export function webhookRows(r) {
  const rows = [];
  const bytes = (n) => `${num(n)} B`;
  const anchors = Object.entries(r.edge?.anchors ?? {})
    .map(([name, a]) => `${name} ${bytes(a.bytes)}`)
    .join('; ');
  for (const [name, x] of Object.entries(r.edge?.receivers ?? {})) {
    rows.push(
      row(
        'webhooks',
        `edge receiver importing ${name}: bundle, minified (esbuild, browser)`,
        anchors,
        bytes(x.bytes),
        '',
        `≤ ${bytes(x.budget)}`,
        x.bytes <= x.budget,
      ),
    );
  }
  for (const [size, x] of Object.entries(r.sizes)) {
    rows.push(
      row(
        'webhooks',
        `verifyWebhookSignature ${size}: ops/s`,
        `raw HMAC ${num(x.rawHmac.opsPerSec)}`,
        num(x.verify.opsPerSec),
        times(x.ratio.verifyToRawHmac),
        '≤ 1.05×',
        x.ratio.verifyToRawHmac <= 1.05,
      ),
    );
    rows.push(
      row(
        'webhooks',
        `parseWebhookEvent ${size}: ops/s`,
        `raw HMAC ${num(x.rawHmac.opsPerSec)}; + JSON.parse ${num(x.rawHmacJsonParse.opsPerSec)}`,
        num(x.parse.opsPerSec),
        `${times(x.ratio.parseToRawHmac)}; ${times(x.ratio.parseToRawHmacJsonParse)} of HMAC + JSON.parse`,
      ),
    );
  }
  return rows;
}

export function buildRows(r) {
  const rows = [];
  for (const [step, inBuild] of Object.entries(r.full.steps)) {
    const alone = r.alone[step];
    const failed = r.full.failed.includes(step) ? ' (failed)' : '';
    rows.push(
      row('build', `step ${step}${failed}`, alone ? `alone ${ms(alone.ms)}` : '', `in the build ${ms(inBuild)}`),
    );
  }
  const failedNote = r.full.failed.length ? ` (${r.full.failed.join(', ')} failed)` : '';
  rows.push(
    row(
      'build',
      `whole forced build over its slowest step${failedNote}`,
      `${r.slowest.inBuild.step} ${ms(r.slowest.inBuild.ms)}${r.slowest.alone.step ? `; alone: ${r.slowest.alone.step} ${ms(r.slowest.alone.ms)}` : ''}`,
      `whole ${ms(r.full.totalMs)}`,
      `${times(r.ratio.wholeToSlowestInBuild)}${Number.isFinite(r.ratio.wholeToSlowestAlone) ? `; ${times(r.ratio.wholeToSlowestAlone)} of alone` : ''}`,
      '≤ 1.5×',
      r.ratio.wholeToSlowestInBuild <= 1.5,
    ),
  );
  const rerun = Object.entries(r.noop.steps)
    .filter(([, v]) => v !== null)
    .map(([k]) => k);
  rows.push(
    row(
      'build',
      `no-op rebuild over a full one${rerun.length ? ` (re-ran: ${rerun.join(', ')})` : ''}`,
      `full ${ms(r.full.totalMs)}`,
      `no-op ${ms(r.noop.totalMs)} (wall ${ms(r.noop.wallMs)})`,
      times(r.ratio.noopToFull),
      '< 0.20×',
      r.ratio.noopToFull < 0.2,
    ),
  );
  return rows;
}

export function packageRows(r) {
  return [
    row(
      'package',
      'tarball (npm pack)',
      '',
      `${kib(r.tarball.size)} packed, ${kib(r.tarball.unpackedSize)} unpacked, ${r.tarball.files} files`,
    ),
    row(
      'package',
      'runtime dependencies',
      '',
      `${r.dependencies.direct} direct (${r.dependencies.directNames.join(', ')}), ${r.dependencies.totalInstalled} installed in total`,
    ),
    row(
      'package',
      'type-check of the consumer fixture (tsc -p)',
      '',
      `${ms(r.typecheck.minMs)} (best of ${r.typecheck.runsMs.length})`,
    ),
    row(
      'package',
      'sandbox/fetch bundled for the browser vs sandbox/server.js for node (esbuild, minified; gzip -9)',
      `server ${weight(r.doors.server)}`,
      `fetch ${weight(r.doors.fetch)}`,
      `${times(r.doors.fetch.gzipped / r.doors.server.gzipped)} gzipped`,
    ),
  ];
}

export function devRows(r) {
  const loads = r.saves.map((s) => s.loadAverage);
  return [
    row(
      'dev',
      `npm run dev: rename of an edited ${r.file} → the served partner.html shows it (median of ${r.saves.length} saves)`,
      `load average ${num(Math.min(...loads), 2)} to ${num(Math.max(...loads), 2)}`,
      `${ms(r.medianMs)} (${ms(r.minMs)} to ${ms(r.maxMs)})`,
      '',
      '≤ 3 s on a quiet machine',
      r.medianMs <= 3000,
    ),
    // What the wall time comes to when nothing else runs: dev and its tools work one after another.
    row(
      'dev',
      'the same: CPU of dev and the tools it ran (Redocly bundle, build-docs), save → served (medians)',
      '',
      `${ms(r.medianCpuMs.all)} (dev ${ms(r.medianCpuMs.dev)}, tools ${ms(r.medianCpuMs.tools)})`,
    ),
  ];
}

const mark = (pass) => (pass === null ? '' : pass ? 'pass' : 'MISS');

export function conformanceRows(r) {
  return Object.entries(r.runs).map(([api, x]) =>
    row(
      'conformance',
      `conformance --api ${api} vs the sandbox: ${num(r.requests)} generated requests (${num(x.requests)} in all${x.workflows ? `, ${x.workflows} workflows` : ''}; ${x.violations} violations)`,
      '',
      ms(x.ms),
      '',
      '< 30 s',
      x.ms < 30_000 && x.violations === 0,
    ),
  );
}

export function table(rows) {
  const head = ['Part', 'Measure', 'Baseline', 'Measured', 'Ratio', 'Target', ''];
  const cells = rows.map((r) =>
    [r.part, r.measure, r.baseline, r.measured, r.ratio, r.target, mark(r.pass)].map((c) =>
      String(c).replace(/\|/g, '\\|'),
    ),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => `| ${c.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}
