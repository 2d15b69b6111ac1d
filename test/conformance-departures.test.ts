// Conformance against deployments that depart from the local sandbox in one
// chosen way (helpers/sandbox-proxy.ts): each violation is classified by
// whose rule it breaks (`--fail-on documented` passes assumptions), and
// `--rotate-key FILE` finds the new key by `active: true` in any position
// (P31), writes it as soon as the rotation answers, and says where it is.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { ConformanceReport } from '../src/conformance/report.js';
import { parseFaults } from '../src/sandbox/http/faults.js';
import { serveSandbox } from '../src/sandbox/server.js';
import { cli } from './helpers/cli.js';
import { sandboxDeparting, type Departure } from './helpers/sandbox-proxy.js';
import { send } from './helpers/served-sandbox.js';

const KEY = 'sbx_departures_key_0123456789abcdef';

/** A conformance run against `url` with the partner key, no rate limit, and `more`. */
const run = (url: string, seed: string, ...more: string[]) =>
  cli([
    'conformance',
    ...['--api', 'partner', '--base-url', url, '--auth-key', KEY, '--rate', '0', '--seed', seed, '--json', ...more],
  ]);

async function conformance(url: string, ...more: string[]): Promise<{ code: number; report: ConformanceReport }> {
  const { code, out, err } = await run(url, '12', '--requests', '200', ...more);
  expect(out, err).not.toBe('');
  return { code, report: JSON.parse(out) };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'vc-departures-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('conformance classifies each violation by whose rule it breaks', () => {
  it('a deployment taking a fractional page or limit (P7 assumes whole numbers) breaks an assumption only', async () => {
    // As a service that reads "numbers" loosely would: the fraction is dropped, the page answered.
    const proxied = await sandboxDeparting(KEY, async (request, answer) => {
      const url = new URL(request.url);
      // Only fractions inside the documented bounds (limit at most 50): a service may read them whole.
      const fractions = ['page', 'limit'].filter((name) => {
        const value = url.searchParams.get(name) ?? '';
        return /^\d+\.\d+$/.test(value) && Number(value) < 50;
      });
      if (!fractions.length) return answer();
      for (const name of fractions) url.searchParams.delete(name);
      return proxied.sandbox.fetch(new Request(url, { headers: request.headers }));
    });
    const all = await conformance(proxied.url);
    expect(all.report.violations.length).toBeGreaterThan(0);
    for (const v of all.report.violations) {
      expect(v.basis, v.rule).toBe('assumption');
      expect(v.assumptions).toEqual(['P7']);
      expect(v.rule).toMatch(/^query (page|limit)/);
    }
    expect(all.code).toBe(1);
    const documented = await conformance(proxied.url, '--fail-on', 'documented');
    expect(documented.report.violations.length).toBeGreaterThan(0);
    expect(documented.code).toBe(0);
  });

  it.each([
    ['a fractional page, not P7', (request: Request) => /[?&](page|limit)=\d+\.\d+/.test(request.url)],
    ['a request without its key, not P3', (request: Request) => !request.headers.has('x-auth-key')],
  ])("a deployment failing with 500 on %s breaks the documents' rule", async (_, fails) => {
    const proxied = await sandboxDeparting(KEY, async (request, answer) =>
      fails(request) ? new Response('{}', { status: 500 }) : answer(),
    );
    const { code, report } = await conformance(proxied.url, '--fail-on', 'documented');
    const failures = report.violations.filter((v) => v.status === 500);
    expect(failures.length).toBeGreaterThan(0);
    for (const v of failures) expect([v.basis, v.assumptions]).toEqual(['documents', []]);
    expect(code).toBe(1);
  });

  it('an answer without a field P8 assumes is always sent is reported as P8', async () => {
    const sandbox = await serveSandbox({ port: 0, authKey: KEY, faults: parseFaults('missing-field@getUser') });
    onTestFinished(() => sandbox.close());
    await send(sandbox.url, KEY, 'POST', '/_sandbox/seed', {});
    const { code, report } = await conformance(sandbox.url, '--fail-on', 'documented');
    expect(report.violations.length).toBeGreaterThan(0);
    for (const v of report.violations) expect([v.basis, v.assumptions]).toEqual(['assumption', ['P8']]);
    expect(code).toBe(0);
  });

  it("a deployment accepting a page size above the documented 50 breaks the documents' rule", async () => {
    const proxied = await sandboxDeparting(KEY, async (request, answer) => {
      const url = new URL(request.url);
      const limit = Number(url.searchParams.get('limit'));
      if (!(Number.isInteger(limit) && limit > 50)) return answer();
      url.searchParams.set('limit', '50');
      return proxied.sandbox.fetch(new Request(url, { headers: request.headers }));
    });
    const { code, report } = await conformance(proxied.url, '--fail-on', 'documented');
    const documents = report.violations.filter((v) => v.basis === 'documents');
    expect(documents.length).toBeGreaterThan(0);
    for (const v of documents) {
      expect(v.rule).toMatch(/^query limit: above-maximum/);
      expect(v.assumptions).toEqual([]);
    }
    expect(code).toBe(1);
  });
});

const rotation = (url: string, keyFile: string) =>
  run(url, '6', '--requests', '20', '--allow-writes', '--rotate-key', keyFile);

const isRotation = (request: Request) => request.method === 'POST' && new URL(request.url).pathname === '/auth-keys';

/** The rotation's answer with its keys in the opposite order: the previous key first. */
const previousKeyFirst: Departure = async (request, answer) => {
  const res = await answer();
  if (!isRotation(request) || res.status !== 201) return res;
  const body = await res.json();
  return Response.json({ ...body, authKeys: [...body.authKeys].reverse() }, { status: 201 });
};

/** The previous key first; once the rotation has answered, `after` may answer instead of the sandbox. */
const rotatedThen = (after: (request: Request) => Response | undefined): Departure => {
  let rotated = false;
  return async (request, answer) => {
    const instead = rotated ? after(request) : undefined;
    if (instead) return instead;
    const res = await previousKeyFirst(request, answer);
    if (isRotation(request)) rotated = true;
    return res;
  };
};

/** Runs conformance with --rotate-key against a target, and reads the key file it wrote. */
async function rotatingRun(depart: Departure, name: string) {
  const target = await sandboxDeparting(KEY, depart);
  const keyFile = path.join(dir, name);
  const r = await rotation(target.url, keyFile);
  const newKey = (await readFile(keyFile, 'utf8')).trim();
  return { ...r, keyFile, newKey, sandboxKey: target.sandbox.authKey, url: target.url };
}

describe('conformance --rotate-key', () => {
  it('finds the new key by active: true when the previous key comes first, and the rotation passes', async () => {
    const r = await rotatingRun(previousKeyFirst, 'reversed-key');
    expect(r.out, r.err).not.toBe('');
    const report: ConformanceReport = JSON.parse(r.out);
    expect(report.violations).toEqual([]);
    expect(report.workflows.find((w) => w.workflowId === 'key-rotation')?.status).toBe('passed');
    expect(r.code).toBe(0);
    expect(r.newKey).toBe(r.sandboxKey);
    expect(r.newKey).not.toBe(KEY);
    expect(report.rotation).toEqual({ keyFile: r.keyFile, written: true });
    expect((await send(r.url, r.newKey, 'GET', '/partners')).status).toBe(200);
    expect(r.out).not.toContain(r.newKey);
    expect(r.err).not.toContain(r.newKey);
  });

  it('when a check after the rotation fails, the new key is in FILE and the run says so', async () => {
    // After the rotation, GET /partners answers 500: the step "new key works" fails.
    const r = await rotatingRun(
      rotatedThen((request) =>
        request.method === 'GET' && new URL(request.url).pathname === '/partners'
          ? Response.json({ statusCode: 500, message: 'down' }, { status: 500 })
          : undefined,
      ),
      'after-failure-key',
    );
    const report: ConformanceReport = JSON.parse(r.out);
    expect(r.code).toBe(1);
    expect(report.workflows.find((w) => w.workflowId === 'key-rotation')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('new-key-works'),
    });
    expect(r.newKey).toBe(r.sandboxKey);
    expect(report.rotation).toEqual({ keyFile: r.keyFile, written: true });
    // Told on stderr while it runs, naming the file.
    expect(r.err).toContain(r.keyFile);
    expect(r.err).not.toContain(r.newKey);
  });

  it('when the target stops answering after the rotation, the error says where the new key is', async () => {
    const r = await rotatingRun(
      rotatedThen(() => Response.error()),
      'unreachable-after-key',
    );
    expect(r.code).toBe(2);
    expect(r.newKey).toBe(r.sandboxKey);
    const error = r.err.split('\n').find((l) => l.startsWith('error:'));
    expect(error).toMatch(/cannot reach/);
    expect(error).toContain(r.keyFile);
    expect(r.err).not.toContain(r.newKey);
  });

  it('a --rotate-key file that cannot be written stops the run before anything is sent', async () => {
    let sent = 0;
    const target = await sandboxDeparting(KEY, async (_, answer) => {
      sent += 1;
      return answer();
    });
    const r = await rotation(target.url, path.join(dir, 'no-such-folder', 'key'));
    expect(r.code).toBe(2);
    expect(r.err).toContain('--rotate-key');
    expect(sent).toBe(0);
  });
});
