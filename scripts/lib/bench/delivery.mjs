// Part "delivery": webhook delivery keeping up with the API, with a healthy
// receiver and with one that fails 1 in 10 attempts. The sandbox (the
// command line, --webhook-url) takes requests from 16 connections for the
// bench's duration while a receiver in the bench's process answers at once;
// each event is timed from its `createdAt` to the arrival that was answered
// 200, and the queue's drain from the end of the load to the last arrival.
// Rounds on the same sandbox; figures are medians of the rounds.
//
// Healthy: creates only, one `verification.created` each. Failing: each
// connection creates a verification and then opens its link, so every
// verification has two events, created then updated; the receiver answers
// 500 to every tenth request and the sandbox retries after 1 s instead of
// the service's 15 minutes. The events answered 200 at once must arrive as
// fast as with the healthy receiver, the later event of a verification whose
// earlier one failed included (a failed event holds nothing back), and the
// failed ones about one retry interval later.
import { createServer } from 'node:http';
import { cases, load, startSandboxServer } from './mock.mjs';
import { MeasureError, withLoadPinned } from './proc.mjs';

/** How long the queue may take to drain before the round counts as not measured. */
const DRAIN_LIMIT_MS = 60_000;
/** The failing receiver answers 500 to every FAIL_EVERY-th request, first attempts and retries alike. */
const FAIL_EVERY = 10;
/** The sandbox's retry interval with the failing receiver (`--retry-interval`). */
const RETRY_INTERVAL_SECONDS = 1;

function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
const median = (xs) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** p50, p99 and how many, of the delays of some arrivals. */
function delays(arrivals) {
  const sorted = arrivals.map((a) => a.delayMs).sort((a, b) => a - b);
  return { count: sorted.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
}

/**
 * A receiver answering at once: 200, or 500 to every `failEvery`-th request
 * when given. Remembers each event's first arrival answered 200 (its delay,
 * how many attempts of it were answered 500 before) and counts the failed ones.
 */
async function receiver({ failEvery = 0 } = {}) {
  const arrivals = new Map();
  const failedAttempts = new Map();
  let requests = 0;
  let onArrival = () => {};
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      requests += 1;
      const fail = failEvery > 0 && requests % failEvery === 0;
      res.writeHead(fail ? 500 : 200).end();
      const { eventId, eventType, createdAt, data } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (fail) {
        failedAttempts.set(eventId, (failedAttempts.get(eventId) ?? 0) + 1);
        return;
      }
      if (!arrivals.has(eventId)) {
        const failed = failedAttempts.get(eventId) ?? 0;
        arrivals.set(eventId, {
          at,
          delayMs: at - Date.parse(createdAt),
          failed,
          eventType,
          verificationId: data?.verificationId,
        });
      }
      onArrival();
    });
  });
  server.keepAliveTimeout = 72_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    arrivals,
    /** Attempts answered 500 so far. */
    failedAttempts: () => sum([...failedAttempts.values()]),
    /** Resolves with true once `count` events have arrived, with false when they have not after `ms`. */
    until(count, ms) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        onArrival = () => {
          if (arrivals.size < count) return;
          clearTimeout(timer);
          resolve(true);
        };
        onArrival();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

/**
 * The failing load: each connection creates a verification, then opens its
 * link (POST /_sandbox/verifications/{id}/open: created becomes started), so
 * each verification has a `verification.created` and a later
 * `verification.updated`. A create not answered 201 is not opened.
 */
function createThenOpen() {
  const create = {
    ...cases.partnerCreate.request(),
    onResponse: (status, body, context) => {
      context.verificationId = status === 201 ? JSON.parse(body).id : undefined;
    },
  };
  const open = {
    method: 'POST',
    path: '/_sandbox/verifications/open',
    // The control API takes JSON only; the body is optional here.
    headers: { 'content-type': 'application/json' },
    setupRequest: (req, context) =>
      context.verificationId ? { ...req, path: `/_sandbox/verifications/${context.verificationId}/open` } : null,
  };
  return [create, open];
}

/**
 * What a failing receiver's round comes to: the events answered 200 at once,
 * the `verification.updated` of each verification whose
 * `verification.created` failed its first attempt (and whether it arrived
 * before that retry), and the events retried.
 */
function failureFigures(arrivals) {
  const createdOf = new Map(
    arrivals.filter((a) => a.eventType === 'verification.created').map((a) => [a.verificationId, a]),
  );
  const afterFailed = arrivals.filter(
    (a) => a.eventType === 'verification.updated' && a.failed === 0 && createdOf.get(a.verificationId)?.failed > 0,
  );
  const retried = arrivals.filter((a) => a.failed > 0);
  return {
    firstAttempt: delays(arrivals.filter((a) => a.failed === 0)),
    afterFailed: {
      ...delays(afterFailed),
      beforeTheRetry: afterFailed.filter((a) => a.at < createdOf.get(a.verificationId).at).length,
    },
    retried: { ...delays(retried), moreThanOnce: retried.filter((a) => a.failed > 1).length },
  };
}

/**
 * One round. A queue not drained within DRAIN_LIMIT_MS ends the measure
 * when `mustDrain`; else the round says how many arrived.
 */
async function round(sandbox, hooks, { seconds, requests, mustDrain }) {
  const before = hooks.arrivals.size;
  const failedBefore = hooks.failedAttempts();
  const start = Date.now();
  const { result } = await load({ url: sandbox.url, requests, seconds });
  const loadEnd = Date.now();
  const during = [...hooks.arrivals.values()].filter((a) => a.at >= start && a.at <= loadEnd).length;
  // Every request answered 2xx made one event: a create, or an opening of a created verification.
  const answered = result['2xx'];
  if (answered === 0)
    throw new MeasureError(
      `the sandbox answered no request under load with 2xx (status codes ${JSON.stringify(result.statusCodeStats)})`,
    );
  const drained = await hooks.until(before + answered, DRAIN_LIMIT_MS);
  if (!drained && mustDrain) {
    throw new MeasureError(
      `${hooks.arrivals.size - before} of ${answered} webhooks arrived within ${DRAIN_LIMIT_MS / 1000} s after the load`,
    );
  }
  const arrivals = [...hooks.arrivals.values()].slice(before);
  const all = delays(arrivals);
  return {
    events: answered,
    drained,
    eventsPerSec: answered / result.duration,
    delivered: arrivals.length,
    failedAttempts: hooks.failedAttempts() - failedBefore,
    deliveredDuringLoad: during,
    deliveredPerSec: during / ((loadEnd - start) / 1000),
    delayP50Ms: all.p50Ms,
    delayP99Ms: all.p99Ms,
    delayMaxMs: Math.max(...arrivals.map((a) => a.delayMs)),
    drainMs: Math.max(0, Math.max(...arrivals.map((a) => a.at)) - loadEnd),
    arrivals,
  };
}

/** `rounds` rounds against one sandbox and receiver; `args` are the sandbox's besides --webhook-url. */
async function scenario({ seconds, rounds, log, name, failEvery, args, requests, mustDrain }) {
  const hooks = await receiver({ failEvery });
  const sandbox = await startSandboxServer(['--webhook-url', hooks.url, ...args]);
  try {
    const samples = [];
    for (let r = 1; r <= rounds; r++) {
      log(`  ${name}, round ${r}/${rounds}: requests for ${seconds} s, then the queue drained`);
      samples.push(await round(sandbox, hooks, { seconds, requests: requests(), mustDrain }));
      // Events still due would land in the next round's figures.
      if (!samples.at(-1).drained) break;
    }
    return samples;
  } finally {
    await sandbox.stop();
    sandbox.memory.stop();
    await hooks.close();
  }
}

export async function benchDelivery({ seconds, rounds = 3, log }) {
  return withLoadPinned(async () => {
    const healthy = await scenario({
      seconds,
      rounds,
      log,
      name: 'healthy receiver',
      failEvery: 0,
      args: [],
      requests: () => [cases.partnerCreate.request()],
      mustDrain: true,
    });
    const failing = await scenario({
      seconds,
      rounds,
      log,
      name: `receiver failing 1 in ${FAIL_EVERY}`,
      failEvery: FAIL_EVERY,
      args: ['--retry-interval', String(RETRY_INTERVAL_SECONDS)],
      requests: createThenOpen,
      mustDrain: false,
    });
    const of = (samples, pick) => median(samples.map(pick));
    const failures = failing.map((s) => failureFigures(s.arrivals));
    const figures = (s) => Object.fromEntries(Object.entries(s).filter(([key]) => key !== 'arrivals'));
    return {
      seconds,
      rounds: healthy.map(figures),
      creates: of(healthy, (s) => s.events),
      createsPerSec: of(healthy, (s) => s.eventsPerSec),
      deliveredPerSec: of(healthy, (s) => s.deliveredPerSec),
      delayP50Ms: of(healthy, (s) => s.delayP50Ms),
      delayP99Ms: of(healthy, (s) => s.delayP99Ms),
      drainMs: of(healthy, (s) => s.drainMs),
      failing: {
        failEvery: FAIL_EVERY,
        retryIntervalSeconds: RETRY_INTERVAL_SECONDS,
        rounds: failing.map((s, i) => ({ ...figures(s), ...failures[i] })),
        events: sum(failing.map((s) => s.events)),
        delivered: sum(failing.map((s) => s.delivered)),
        failedAttempts: sum(failing.map((s) => s.failedAttempts)),
        eventsPerSec: of(failing, (s) => s.eventsPerSec),
        drainMs: of(failing, (s) => s.drainMs),
        firstAttempt: {
          count: sum(failures.map((f) => f.firstAttempt.count)),
          p50Ms: of(failures, (f) => f.firstAttempt.p50Ms),
          p99Ms: of(failures, (f) => f.firstAttempt.p99Ms),
        },
        afterFailed: {
          count: sum(failures.map((f) => f.afterFailed.count)),
          beforeTheRetry: sum(failures.map((f) => f.afterFailed.beforeTheRetry)),
          p50Ms: of(failures, (f) => f.afterFailed.p50Ms),
          p99Ms: of(failures, (f) => f.afterFailed.p99Ms),
        },
        retried: {
          count: sum(failures.map((f) => f.retried.count)),
          moreThanOnce: sum(failures.map((f) => f.retried.moreThanOnce)),
          p50Ms: of(failures, (f) => f.retried.p50Ms),
          p99Ms: of(failures, (f) => f.retried.p99Ms),
        },
      },
    };
  });
}
