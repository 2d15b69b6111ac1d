// `npm run build` while `npm run dev` runs in the same checkout: the build
// is handed to dev, which runs it in its own queue (never beside a build of
// its own), then reloads its pages, mocks and sandbox on what it wrote.
// Dev records where it listens in node_modules/.cache/verification-contracts/
// (one record per checkout: node_modules may be a link several checkouts
// share), with its pid and a token the request must carry: a web page cannot
// send that header to the docs server unasked. The build's lines come back
// as they happen, one JSON object a line, the last one with its exit status.
import { randomBytes, createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { ROOT } from './paths.mjs';

/** Where the dev of the checkout at `root` records itself. */
export const devRecordOf = (root) =>
  path.join(
    root,
    'node_modules',
    '.cache',
    'verification-contracts',
    `dev-${createHash('sha256').update(root).digest('hex').slice(0, 12)}.json`,
  );
const RECORD = devRecordOf(ROOT);
const ROUTE = '/__dev/build';

/**
 * Dev's side: `handle(req, res)` answers a handed build (false for any
 * other request) by `run(options, say)`, where `say(text, { error })` sends
 * a line back and the promise resolves with the exit status. `record(url)`
 * writes the record once the server listens; `remove()` (also run when the
 * process exits) deletes it.
 */
export function devHandover(run) {
  const token = randomBytes(16).toString('hex');
  const remove = () => {
    // Only its own: a dev started since in this checkout has written its record over it.
    if (readRecord()?.pid === process.pid) rmSync(RECORD, { force: true });
  };
  return {
    handle: buildRequestHandler(token, run),
    record(url) {
      mkdirSync(path.dirname(RECORD), { recursive: true });
      writeFileSync(RECORD, `${JSON.stringify({ pid: process.pid, root: ROOT, url, token }, null, 2)}\n`);
      process.on('exit', remove);
    },
    remove,
  };
}

function readRecord() {
  try {
    return JSON.parse(readFileSync(RECORD, 'utf8'));
  } catch {
    return null;
  }
}

/** The record of a dev that still runs; a record left by one that died is ignored. */
function liveRecord() {
  const record = readRecord();
  if (!record || record.root !== ROOT) return null;
  try {
    process.kill(record.pid, 0);
    return record;
  } catch {
    return null;
  }
}

/**
 * Hands a build (`{ force, only }`) to the dev running in this checkout and
 * prints its lines. Resolves with the build's exit status, or null when no
 * dev runs here or it cannot be reached (the caller builds itself).
 */
export function handToDev(options) {
  const record = liveRecord();
  if (!record) return Promise.resolve(null);
  const body = JSON.stringify(options);
  return new Promise((resolve) => {
    let answered = false;
    const req = request(`${record.url}${ROUTE}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        'X-Dev-Token': record.token,
      },
    });
    req.on('response', (res) => {
      answered = true;
      console.log(
        `build: run by npm run dev (pid ${record.pid}, docs ${record.url}/), which owns generated/ in this checkout; its lines follow`,
      );
      let status = null;
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop();
        for (const line of lines.filter(Boolean).map((text) => JSON.parse(text))) {
          if ('status' in line) status = line.status;
          else (line.error ? console.error : console.log)(line.text);
        }
      });
      res.on('end', () => {
        if (status === null) console.error('error: npm run dev ended before the build did; run npm run build again');
        resolve(status ?? 1);
      });
    });
    req.on('error', (err) => {
      if (answered) return;
      console.log(
        `build: npm run dev (pid ${record.pid}) did not answer at ${record.url} (${err.message}); building here`,
      );
      resolve(null);
    });
    req.end(body);
  });
}

function buildRequestHandler(token, run) {
  return (req, res) => {
    if (req.url !== ROUTE) return false;
    if (req.method !== 'POST' || req.headers['x-dev-token'] !== token) {
      res
        .writeHead(403, { 'Content-Type': 'text/plain' })
        .end('run `npm run build` in this checkout to hand a build to npm run dev\n');
      return true;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson', 'Cache-Control': 'no-store' });
      const send = (line) => res.writableEnded || res.write(`${JSON.stringify(line)}\n`);
      const { force = false, only = null } = JSON.parse(body || '{}');
      let status = 1;
      try {
        status = await run({ force, only }, (text, { error = false } = {}) => send({ text, error }));
      } catch (err) {
        send({ text: `error: ${err.message}`, error: true });
      }
      send({ status });
      res.end();
    });
    return true;
  };
}
