// `verification-contracts conformance` against the sandbox: no violation
// against the sandbox as it is; each fault the sandbox is told to commit is
// reported, naming the operation; and the run stays inside its bounds.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { judgeAnswer } from '../src/conformance/checks.js';
import { Target } from '../src/conformance/http.js';
import { loadApi } from '../src/conformance/operations.js';
import { WORKFLOWS_FILE, type ConformanceReport } from '../src/conformance/report.js';
import { readBundledDocument } from '../src/package-files.js';
import { parseFaults, type FaultSpec } from '../src/sandbox/http/faults.js';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';
import { ROOT } from '../scripts/lib/paths.mjs';
import { freePort } from '../scripts/lib/prism.mjs';
import { cli as command } from './helpers/cli.js';
import { sandboxDeparting } from './helpers/sandbox-proxy.js';
import { send } from './helpers/served-sandbox.js';

const KEY = 'sbx_conformance_key_0123456789';
const TOKEN = 'v2_conformance_token_0123456789';

async function seededSandbox(faults?: FaultSpec[], validateResponses = false): Promise<Sandbox> {
  const sandbox = await serveSandbox({ port: 0, authKey: KEY, accessToken: TOKEN, faults, validateResponses });
  expect((await send(sandbox.url, KEY, 'POST', '/_sandbox/seed', {})).status).toBe(200);
  return sandbox;
}

/** A seeded sandbox closed when the test ends. */
async function testSandbox(faults?: FaultSpec[], validateResponses = false): Promise<Sandbox> {
  const sandbox = await seededSandbox(faults, validateResponses);
  onTestFinished(() => sandbox.close());
  return sandbox;
}

const cli = (args: string[]) => command(['conformance', ...args]);

/** The options of a run against `s` with the credential of `api`, no rate limit, and `more`. */
const argsFor = (api: 'partner' | 'v2', s: { url: string }, ...more: string[]) => [
  ...['--api', api, '--base-url', s.url],
  ...(api === 'partner' ? ['--auth-key', KEY] : ['--access-token', TOKEN]),
  ...['--rate', '0', ...more],
];

async function jsonRun(args: string[]): Promise<{ code: number; report: ConformanceReport; out: string }> {
  const r = await cli([...args, '--json']);
  return { code: r.code, report: JSON.parse(r.out), out: r.out };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'vc-conformance-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('conformance against the sandbox as it is', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    // The sandbox checks its own answers too: a 500 from it would be a violation here.
    sandbox = await seededSandbox(undefined, true);
  });
  afterAll(() => sandbox.close());

  it('partner, read-only: 0 violations, every read operation exercised with ids from the lists, no write sent', async () => {
    const before = (await send(sandbox.url, KEY, 'GET', '/verifications?limit=0')).body;
    const { code, report, out } = await jsonRun(argsFor('partner', sandbox, '--seed', '7', '--requests', '300'));
    expect(report.violations).toEqual([]);
    expect(code).toBe(0);
    expect(report.operations.map((o) => o.operation).every((o) => o.startsWith('GET '))).toBe(true);
    // Every GET of the partner document, counted from the bundle so an added read operation is expected too.
    const paths: { get?: { operationId: string } }[] = Object.values(readBundledDocument('partner').paths);
    const reads = paths.flatMap((item) => (item.get ? [item.get.operationId] : []));
    expect(reads.length).toBeGreaterThanOrEqual(13);
    expect(report.operations.map((o) => o.operationId).sort()).toEqual(reads.sort());
    for (const o of report.operations) {
      expect(o.valid, o.operationId).toBeGreaterThan(0);
      expect(o.credentials, o.operationId).toBe(2);
    }
    // Operations with a rule a query can break got invalid requests too.
    expect(report.operations.find((o) => o.operationId === 'listVerifications')!.invalid).toBeGreaterThan(0);
    expect(report.workflows.every((w) => w.status === 'skipped')).toBe(true);
    const after = (await send(sandbox.url, KEY, 'GET', '/verifications?limit=0')).body;
    expect(after.count).toBe(before.count);
    expect(out).not.toContain(KEY);
    expect(sandbox.violations).toEqual([]);
  });

  it('v2: 0 violations', async () => {
    const { code, report } = await jsonRun(argsFor('v2', sandbox, '--seed', '11', '--requests', '200'));
    expect(report.violations).toEqual([]);
    expect(code).toBe(0);
    expect(report.operations.map((o) => o.operationId).sort()).toEqual(['getVerification', 'listVerifications']);
  });

  it('partner with --allow-writes and --rotate-key: the workflows pass, 0 violations, the new key is written and works', async () => {
    const keyFile = path.join(dir, 'new-key');
    const r = await cli(
      argsFor('partner', sandbox, '--seed', '3', '--requests', '300', '--allow-writes', '--rotate-key', keyFile),
    );
    expect(r.out).toContain('✓ 0 violations');
    expect(r.code).toBe(0);
    for (const w of ['new-user', 'merge', 'manual-review', 'revert', 'key-rotation'])
      expect(r.out).toMatch(new RegExp(`passed +${w}`));
    expect(r.out).toMatch(/skipped +webhook-delivery/);
    const newKey = (await readFile(keyFile, 'utf8')).trim();
    expect(newKey).not.toBe(KEY);
    expect(r.out).not.toContain(KEY);
    expect(r.out).not.toContain(newKey);
    expect((await send(sandbox.url, newKey, 'GET', '/partners')).status).toBe(200);
    expect((await send(sandbox.url, KEY, 'GET', '/partners')).status).toBe(401);
    expect(sandbox.violations).toEqual([]);
  });
});

describe('false alarms', () => {
  type Listed = { phoneNumbers: { phoneNumber: string }[] };
  const hasPhone = (v: Listed) => v.phoneNumbers.some((p) => p.phoneNumber === '+7724004');

  it('the phoneNumber filter is judged on phoneNumbers[].phoneNumber, not the deprecated top-level field', async () => {
    const sandbox = await testSandbox(undefined, true);
    const created = await send(sandbox.url, KEY, 'POST', '/verifications', {
      externalUserId: '5a0f7c1e-2b4d-4e8a-9c3f-6d1b8e2a7f40',
      redirectUrl: 'https://partner.example.com/done',
      phoneNumbers: [{ phoneNumber: '+7724004', isVerified: false }],
    });
    expect(created.status).toBe(201);
    const { code, report } = await jsonRun(argsFor('partner', sandbox, '--seed', '2'));
    expect(report.violations).toEqual([]);
    expect(code).toBe(0);
    // The check still sees a phoneNumber filter that was ignored.
    const model = loadApi('partner');
    const list = model.operations.find((o) => o.operationId === 'listVerifications')!;
    const all: { verifications: Listed[] } = (await send(sandbox.url, KEY, 'GET', '/verifications')).body;
    const other = all.verifications.findIndex((v) => !hasPhone(v));
    expect(other).toBeGreaterThanOrEqual(0);
    const wanted = { params: {}, query: { phoneNumber: ['+7724004'] }, body: undefined };
    const problems = (received: unknown) =>
      judgeAnswer(list, model.doc, 'valid', 200, received, wanted).map((f) => f.problem);
    expect(problems(all)).toEqual([
      `filter phoneNumber=+7724004 ignored: item ${other} has phoneNumbers[].phoneNumber ${JSON.stringify(all.verifications[other].phoneNumbers.map((p) => p.phoneNumber))}`,
    ]);
    expect(problems({ ...all, verifications: all.verifications.filter(hasPhone) })).toEqual([]);
  });
});

describe('each injected fault is reported, naming the operation', () => {
  it.each([
    ['missing-field@getUser', 'partner', 'getUser', /must have required property/],
    ['wrong-status@getPartner', 'partner', 'getPartner', /status 202 is not documented for getPartner/],
    [
      'ignored-filter@listVerifications',
      'v2',
      'listVerifications',
      /filter (statuses|id|externalId)=.* ignored: item \d+ has (status|id|externalId) /,
    ],
    ['accepts-invalid@listUsers', 'partner', 'listUsers', /breaking a documented rule was answered 200/],
    ['server-error@getVerification', 'v2', 'getVerification', /status 500 is not documented for getVerification/],
    [
      'ignores-credentials@listAuthKeys',
      'partner',
      'listAuthKeys',
      /with (no|a wrong) credential was answered 200, not the documented 401/,
    ],
  ] as const)('%s', async (fault, api, operation, problem) => {
    const sandbox = await testSandbox(parseFaults(fault));
    const { code, report } = await jsonRun(argsFor(api, sandbox, '--seed', '5', '--requests', '200'));
    expect(code).toBe(1);
    expect(report.violations.length).toBeGreaterThan(0);
    expect(new Set(report.violations.map((v) => v.operationId))).toEqual(new Set([operation]));
    expect(report.violations.some((v) => v.problems.some((p) => problem.test(p)))).toBe(true);
    for (const v of report.violations) {
      expect(v.curl).toMatch(new RegExp(`^curl -X GET '${sandbox.url}/`));
      expect(v.curl).not.toContain(KEY);
      expect(v.curl).not.toContain(TOKEN);
      expect(v.status).toBeGreaterThan(0);
    }
    expect(report.operations.find((o) => o.operationId === operation)!.violations).toBe(report.violations.length);
  });

  it('the text report names the operation, the curl line, what was received and what broke; --junit fails that operation', async () => {
    const sandbox = await testSandbox(parseFaults('missing-field@getUserShares'));
    const junit = path.join(dir, 'report.xml');
    const r = await cli(argsFor('partner', sandbox, '--seed', '9', '--requests', '100', '--junit', junit));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/✗ 1\. partner getUserShares \(GET \/users\/\{userId\}\/shares\) — valid request/);
    expect(r.out).toMatch(
      / {2}request: {2}curl -X GET 'http:\/\/127\.0\.0\.1:\d+\/users\/[^']+\/shares' -H 'X-Auth-Key: \*\*\*'/,
    );
    expect(r.out).toMatch(/ {2}received: 200 \{/);
    expect(r.out).toMatch(/ {2}broken: {3}body must have required property '\w+' \(schema #\/.+\/required\)/);
    expect(r.out).toMatch(/getUserShares \(GET \/users\/\{userId\}\/shares\) +\d+ +0 +2 +0 +✗ \d+/);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(
      /<testcase classname="conformance.partner" name="getUserShares \(GET \/users\/\{userId\}\/shares\)">\s*<failure/,
    );
    expect(xml).toMatch(/<testcase classname="conformance.partner" name="getPartner \(GET \/partners\)"\/>/);
    expect(xml).not.toContain(KEY);
  });

  it('a workflow step that departs from the contract is reported with the workflow, the step and the operation', async () => {
    const sandbox = await testSandbox(parseFaults('wrong-status@getVerification'));
    const { code, report } = await jsonRun(
      argsFor('partner', sandbox, '--seed', '4', '--requests', '40', '--allow-writes'),
    );
    expect(code).toBe(1);
    const step = report.violations.filter(
      (v) => v.kind === 'workflow' && v.rule === 'workflow new-user, step read-completed',
    );
    expect(step.map((v) => [v.operationId, v.operation, v.status])).toEqual([
      ['getVerification', 'GET /verifications/{verificationId}', 202],
      ['getVerification', 'GET /verifications/{verificationId}', 202],
    ]);
    expect(step.flatMap((v) => v.problems)).toEqual([
      'status 202 is not documented for getVerification (documented: 200, 400, 401, 404)',
      'success criterion failed: $statusCode == 200',
    ]);
    expect(report.workflows.find((w) => w.workflowId === 'new-user')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('$statusCode == 200'),
    });
    expect(new Set(report.violations.map((v) => v.operationId))).toEqual(new Set(['getVerification']));
  });

  it('the same seed sends the same requests; another seed others', async () => {
    const sandbox = await testSandbox(parseFaults('accepts-invalid@listVerifications'));
    const curls = async (seed: string) =>
      (await jsonRun(argsFor('partner', sandbox, '--seed', seed, '--requests', '120'))).report.violations.map(
        (v) => v.curl,
      );
    const first = await curls('42');
    expect(first.length).toBeGreaterThan(3);
    expect(await curls('42')).toEqual(first);
    expect(await curls('43')).not.toEqual(first);
  });
});

describe('bounds and arguments', () => {
  it('--max-requests stops the run at that many requests', async () => {
    const sandbox = await testSandbox();
    const { code, report } = await jsonRun(argsFor('partner', sandbox, '--max-requests', '25', '--requests', '500'));
    expect(report.requests).toBe(25);
    expect(report.stoppedEarly).toMatch(/--max-requests 25 reached/);
    expect(code).toBe(0);
  });

  it('--rate spaces the requests out', async () => {
    const sandbox = await testSandbox();
    const started = Date.now();
    const { report } = await jsonRun(argsFor('v2', sandbox, '--rate', '40', '--max-requests', '21'));
    expect(report.requests).toBe(21);
    // 21 requests at 40/s: at least 20 intervals of 25 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });

  it('requests go to the base URL only', () => {
    const target = new Target({ baseUrl: 'http://127.0.0.1:9/api', rate: 0, maxRequests: 1 });
    expect(target.urlOf('/users?limit=1')).toBe('http://127.0.0.1:9/api/users?limit=1');
    expect(() => target.urlOf('@evil.example/x')).toThrow(/outside/);
    expect(() => target.urlOf('.evil.example/x')).toThrow(/outside/);
  });

  it('an unreachable target exits 2', async () => {
    const port = await freePort();
    const r = await cli(argsFor('partner', { url: `http://127.0.0.1:${port}` }));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    expect(r.err).not.toContain(KEY);
  });
});

describe('stops early with the fix', () => {
  /** A seeded sandbox whose every answer is `status`; counts what it got. */
  async function answering(status: number): Promise<{ url: string; got: string[] }> {
    const got: string[] = [];
    const { url } = await sandboxDeparting(KEY, async (request) => {
      got.push(`${request.method} ${new URL(request.url).pathname}`);
      return Response.json({ statusCode: status, message: 'no' }, { status });
    });
    return { url, got };
  }

  it('a refused credential: one request, exit 2, one line naming the call and the rotation', async () => {
    const target = await answering(401);
    const r = await cli(argsFor('partner', target));
    expect(r).toMatchObject({ code: 2, out: '' });
    expect(target.got).toEqual(['GET /partners']);
    expect(r.err).toMatch(/^error: .*GET \/partners answered 401 .*POST \/auth-keys/m);
    expect(r.err).not.toContain(KEY);
    const v2 = await cli(argsFor('v2', target));
    expect(v2.code).toBe(2);
    expect(v2.err).toMatch(/^error: .*GET \/v2\/verifications\/ answered 401/m);
  });

  it('against the sandbox, the refusal carries its reason: a key rotated away', async () => {
    const sandbox = await testSandbox();
    const rotated = await send(sandbox.url, KEY, 'POST', '/auth-keys', {});
    expect(rotated.status).toBe(201);
    const reason = (await send(sandbox.url, KEY, 'GET', '/partners')).headers.get('x-sandbox-reason');
    const r = await cli(argsFor('partner', sandbox));
    expect(r.code).toBe(2);
    expect(r.err).toContain(`(the target says: ${reason})`);
  });

  it('every probed path 404: exit 2 naming each URL probed and --base-url, after at most 3 requests', async () => {
    const target = await answering(404);
    const r = await cli(argsFor('partner', { url: `${target.url}/api` }));
    expect(r.code).toBe(2);
    expect(target.got.length).toBeLessThanOrEqual(3);
    expect(target.got[0]).toBe('GET /api/partners');
    for (const got of target.got) expect(r.err).toContain(got.replace(' ', ` ${target.url}`));
    expect(r.err).toContain('--base-url');
  });

  it('a v2 base URL ending in /v2 (the banner of old): exit 2, saying to drop it', async () => {
    const sandbox = await testSandbox();
    const r = await cli(argsFor('v2', { url: `${sandbox.url}/v2` }));
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--base-url (${sandbox.url})`);
  });

  it('tells its progress on stderr while it runs; the report names files that are in the package', async () => {
    const sandbox = await testSandbox();
    const r = await cli(argsFor('partner', sandbox, '--seed', '8', '--requests', '120'));
    expect(r.code).toBe(0);
    const progress = r.err.split('\n');
    expect(progress.every((line) => line.startsWith('conformance: '))).toBe(true);
    expect(progress[0]).toContain(sandbox.url);
    for (const told of ['50 requests sent, 0 violations', '120 requests', 'seed 8'])
      expect(progress.some((line) => line.includes(told))).toBe(true);
    expect(progress.at(-1)).toMatch(/\b\d+ requests, 0 violations$/);
    // Any file the report names is in the installed package.
    const named = [...r.out.matchAll(/[\w.-]+(?:\/[\w.-]+)+\.(?:json|ya?ml|md|xml|html)/g)].map((m) => m[0]);
    expect(named).toContain(WORKFLOWS_FILE);
    const { files } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    for (const file of named) {
      expect(
        files.some((f) => file.startsWith(`${f}/`)),
        file,
      ).toBe(true);
      await expect(readFile(path.join(ROOT, file)), file).resolves.toBeDefined();
    }
  });
});
