// Part "delivery": webhook delivery keeping up with the API. The sandbox
// (the command line, --webhook-url) takes creates from 16 connections for
// the bench's duration while a receiver in the bench's process answers 200
// at once; each `verification.created` is timed from its `createdAt` to its
// arrival, and the queue's drain from the end of the load to the last
// arrival. Rounds on the same sandbox; figures are medians of the rounds.
import { createServer } from 'node:http';
import { cases, load, startSandboxServer } from './mock.mjs';
import { MeasureError, withLoadPinned } from './proc.mjs';

/** How long the queue may take to drain before the round counts as not measured. */
const DRAIN_LIMIT_MS = 60_000;

function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
const median = (xs) => percentile([...xs].sort((a, b) => a - b), 50);

/** A receiver answering 200 at once; remembers each event's arrival and delay. */
async function receiver() {
  const arrivals = new Map();
  let onArrival = () => {};
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      res.writeHead(200).end();
      const { eventId, createdAt } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (!arrivals.has(eventId)) arrivals.set(eventId, { at, delayMs: at - Date.parse(createdAt) });
      onArrival();
    });
  });
  server.keepAliveTimeout = 72_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    arrivals,
    /** Resolves once `count` events have arrived; rejects after `ms`. */
    until(count, ms) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new MeasureError(`${arrivals.size} of ${count} webhooks arrived within ${ms / 1000} s after the load`)), ms);
        onArrival = () => arrivals.size >= count && (clearTimeout(timer), resolve());
        onArrival();
      });
    },
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

async function round(sandbox, hooks, { seconds }) {
  const before = hooks.arrivals.size;
  const start = Date.now();
  const { result } = await load({ url: sandbox.url, request: cases.partnerCreate.request(), seconds });
  const loadEnd = Date.now();
  const during = [...hooks.arrivals.values()].filter((a) => a.at >= start && a.at <= loadEnd).length;
  const created = result['2xx'];
  if (created === 0) throw new MeasureError(`the sandbox answered no create under load (status codes ${JSON.stringify(result.statusCodeStats)})`);
  await hooks.until(before + created, DRAIN_LIMIT_MS);
  const delays = [...hooks.arrivals.values()].slice(before).map((a) => a.delayMs).sort((a, b) => a - b);
  const last = Math.max(...[...hooks.arrivals.values()].slice(before).map((a) => a.at));
  return {
    creates: created,
    createsPerSec: created / result.duration,
    deliveredDuringLoad: during,
    deliveredPerSec: during / ((loadEnd - start) / 1000),
    delayP50Ms: percentile(delays, 50),
    delayP99Ms: percentile(delays, 99),
    delayMaxMs: delays.at(-1),
    drainMs: Math.max(0, last - loadEnd),
  };
}

export async function benchDelivery({ seconds, rounds = 3, log }) {
  return withLoadPinned(async () => {
    const hooks = await receiver();
    const sandbox = await startSandboxServer(['--webhook-url', hooks.url]);
    try {
      const samples = [];
      for (let r = 1; r <= rounds; r++) {
        log(`  round ${r}/${rounds}: creates for ${seconds} s, then the queue drained`);
        samples.push(await round(sandbox, hooks, { seconds }));
      }
      const of = (key) => median(samples.map((s) => s[key]));
      return {
        seconds,
        rounds: samples,
        creates: of('creates'),
        createsPerSec: of('createsPerSec'),
        deliveredPerSec: of('deliveredPerSec'),
        delayP50Ms: of('delayP50Ms'),
        delayP99Ms: of('delayP99Ms'),
        drainMs: of('drainMs'),
      };
    } finally {
      await sandbox.stop();
      sandbox.memory.stop();
      await hooks.close();
    }
  });
}
