// The package as a consumer gets it: packed, installed from the tarball into
// a fresh project, type-checked and run there; its exports checked with
// @arethetypeswrong/cli and publint.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, TSC, TSC_NATIVE } from '../../scripts/lib/paths.mjs';
import { exec, installInto, sharedInstall, type Packed } from '../helpers/packed-package.js';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';

const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
const work = mkdtempSync(path.join(os.tmpdir(), 'vc-consumer-'));
const project = path.join(work, 'consumer');
// Only the package, as `npm install @verification-service/contracts` leaves it (the
// run's shared install; read-only).
let bare = '';
let tarball = '';
let packed: Packed;

beforeAll(async () => {
  ({ tarball, packed, project: bare } = await sharedInstall());
  console.log(
    `tarball: ${(packed.size / 1024).toFixed(0)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked, ${packed.files.length} files`,
  );

  await installInto(project, tarball, ['@types/node@20.19.43']);
  const fixture = path.join(ROOT, 'test', 'fixtures', 'consumer');
  for (const file of ['consumer.ts', 'tsconfig.json']) copyFileSync(path.join(fixture, file), path.join(project, file));
}, HANG_CEILING_MS);

/** Every package installed under node_modules, scoped ones included, at any depth. */
function installedPackages(dir: string): string[] {
  const modules = path.join(dir, 'node_modules');
  let names: string[];
  try {
    names = readdirSync(modules).filter((n) => !n.startsWith('.'));
  } catch {
    return [];
  }
  return names
    .flatMap((n) => (n.startsWith('@') ? readdirSync(path.join(modules, n)).map((m) => `${n}/${m}`) : [n]))
    .flatMap((n) => [n, ...installedPackages(path.join(modules, n))]);
}

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed tarball', () => {
  // The README's screenshots are served with the hosted reference: no consumer's code uses them.
  // 504 KiB as measured with the sandbox's fetch door, which carries the
  // three documents and their request validators compiled (about 88 KiB of
  // it): it cannot read the package's files where it runs (K3); the
  // maintainers' guides stay out (K5).
  it('is under 552 KiB packed and carries no screenshots', () => {
    expect(packed.files.filter((f) => /\.(jpe?g|png)$/.test(f.path))).toEqual([]);
    expect(packed.size).toBeLessThan(552 * 1024);
  });

  it('installs three packages at most: itself, openapi-fetch and what openapi-fetch needs', () => {
    const installed = installedPackages(bare).sort();
    const { dependencies } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(Object.keys(dependencies)).toEqual(['openapi-fetch']);
    expect(installed).toEqual(expect.arrayContaining(['openapi-fetch', '@verification-service/contracts']));
    expect(installed.length, installed.join(', ')).toBeLessThanOrEqual(3);
    expect(installed.filter((n) => /fastify|ajv|pino/.test(n))).toEqual([]);
  });

  it('starts the sandbox from that install alone, which answers both APIs', async () => {
    const child = spawn(
      path.join(bare, 'node_modules', '.bin', 'verification-contracts'),
      ['sandbox', '--port', '0', '--auth-key', 'bare-key', '--access-token', 'bare-token'],
      {
        cwd: bare,
        env: { ...process.env, NODE_PATH: '' },
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${out}`)));
      });
      const created = await fetch(`${url}/verifications`, {
        method: 'POST',
        headers: { 'X-Auth-Key': 'bare-key', 'content-type': 'application/json' },
        body: JSON.stringify({
          externalUserId: 'd41f7a2c-9e3b-4c05-8a6f-2b7e9c1d4f80',
          redirectUrl: 'https://partner.example/done',
          requirements: [{ type: 'document' }],
        }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const refused = await fetch(`${url}/verifications`, {
        headers: { 'X-Auth-Key': 'wrong', 'Content-Type': 'application/json' },
      });
      expect(refused.status).toBe(401);
      const v2 = await fetch(`${url}/v2/verifications/`, { headers: { Authorization: 'Bearer bare-token' } });
      expect(v2.status).toBe(200);
    } finally {
      child.kill('SIGINT');
    }
  }, 60_000);

  it('holds what consumers need and nothing else', () => {
    const files = packed.files.map((f) => f.path);
    for (const file of files) {
      expect(file, file).toMatch(
        /^(generated\/lib\/|generated\/openapi\/|generated\/workflows\/|package\.json$|README\.md$|CHANGELOG\.md$|openapi\/DECISIONS\.md$|guides\/[a-z-]+\.md$|guides\/examples\/worker-receiver\/[a-z.]+$|guides\/images\/docs-[a-z]+\.jpg$)/,
      );
    }
    expect(files).toEqual(
      expect.arrayContaining([
        'generated/lib/src/v2.js',
        'generated/lib/src/v2.d.ts',
        'generated/lib/src/partner.js',
        'generated/lib/src/webhooks/index.js',
        'generated/lib/src/cli/index.js',
        'generated/openapi/v2.json',
        'generated/openapi/partner.yaml',
        // The documented sequences, run by `verification-contracts conformance`.
        'generated/workflows/partner-sequences.arazzo.json',
      ]),
    );
    expect(files.some((f) => /(^|\/)(test|openapi\/v2|openapi\/partner\/|docs)\//.test(f))).toBe(false);
  });

  it(
    'type-checks a strict NodeNext consumer of every entry point, and runs it',
    async () => {
      // Every declaration the consumer sees, the package's and its
      // dependencies' (skipLibCheck off, as the fixture's tsconfig says), on the
      // native compiler; and the consumer compiled to dist/ by TypeScript 5, the
      // package's own compiler, as a partner's build would (its declarations
      // were emitted by that compiler). 6 s of CPU where TypeScript 5 checking
      // every declaration took 12 s (T1).
      await Promise.all([
        exec(process.execPath, [TSC_NATIVE, '-p', project, '--noEmit']),
        exec(process.execPath, [TSC, '-p', project, '--skipLibCheck']),
      ]);
      const { stdout } = await exec(process.execPath, [path.join(project, 'dist', 'consumer.js')], { cwd: project });
      const result = JSON.parse(stdout);
      expect(result).toMatchObject({
        status: 'APPROVED',
        estimatedAge: 'over18',
        refused: 'mismatch',
        answered: '200 ignored company.created',
        verified: true,
        openapi: ['3.1.0', '3.1.0'],
        sandboxClient: true,
        sandboxFetch: '200 2026-05-04T10:00:00.000Z consumer-key',
        receiverCheck: 'true 17',
      });
      expect(result.userId).toEqual(expect.any(String));
      expect(result.seen).toEqual([
        'GET /v2/verifications/v-1 Bearer consumer-token',
        'GET /v2/verifications/?statuses=APPROVED&statuses=REVIEW Bearer consumer-token',
        'GET /verifications?status=inReview,completed consumer-key',
      ]);
      // tsc reads every declaration the consumer sees (skipLibCheck off): slow on a busy machine.
    },
    HANG_CEILING_MS,
  );

  it('runs the installed command line', async () => {
    const { stdout } = await exec(path.join(project, 'node_modules', '.bin', 'verification-contracts'), [
      'webhooks',
      '--help',
    ]);
    expect(stdout).toContain('webhooks send');
  });

  it('passes @arethetypeswrong/cli (ESM-only profile) and publint', async () => {
    // The YAML documents are data files for tools, not modules to import.
    // The ESM-only profile ignores node10 and require() resolution; attw exits
    // non-zero on any other problem.
    const yamlEntries = Object.keys(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).exports).filter(
      (e) => e.endsWith('.yaml'),
    );
    const attw = await exec(bin('attw'), [
      tarball,
      '--profile',
      'esm-only',
      '--format',
      'ascii',
      '--exclude-entrypoints',
      ...yamlEntries,
    ]).then(
      (r) => ({ code: 0, ...r }),
      (e) => e,
    );
    expect(attw.code, attw.stdout).toBe(0);
    expect(attw.stdout).toContain('"@verification-service/contracts/webhooks"');
    const publint = await exec(bin('publint'), ['run', tarball, '--strict']).catch((e) => e);
    expect(publint.stdout + (publint.stderr ?? ''), 'publint').toMatch(/All good!/);
  });
});
