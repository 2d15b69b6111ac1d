// `conformance --rotate-key FILE` against deployments that list the previous
// key first (P31 allows either order) or fail a check after the rotation:
// the new key is found by `active: true`, written to FILE as soon as the
// rotation answers, and the run says where it is.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/conformance/report.js';
import { cli } from './helpers/cli.js';
import { sandboxDeparting, type Departure } from './helpers/sandbox-proxy.js';

const KEY = 'sbx_rotation_key_0123456789abcdef';

const conformance = (url: string, keyFile: string) =>
  cli([
    'conformance',
    ...['--api', 'partner', '--base-url', url, '--auth-key', KEY, '--rate', '0', '--seed', '6'],
    ...['--requests', '20', '--allow-writes', '--rotate-key', keyFile, '--json'],
  ]);

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
  const r = await conformance(target.url, keyFile);
  const newKey = (await readFile(keyFile, 'utf8')).trim();
  return { ...r, keyFile, newKey, sandboxKey: target.sandbox.authKey, url: target.url };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'vc-rotation-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

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
    const partners = await fetch(`${r.url}/partners`, {
      headers: { 'X-Auth-Key': r.newKey, 'Content-Type': 'application/json' },
    });
    expect(partners.status).toBe(200);
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
    const r = await conformance(target.url, path.join(dir, 'no-such-folder', 'key'));
    expect(r.code).toBe(2);
    expect(r.err).toContain('--rotate-key');
    expect(sent).toBe(0);
  });
});
