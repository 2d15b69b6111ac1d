// The package packed and installed as a consumer gets it: a strict consumer of
// every entry point and the sandbox guide's vitest examples, type-checked and
// run; the installed sandbox command; the tarball; attw and publint.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, TSC, TSC_NATIVE } from '../../scripts/lib/paths.mjs';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';
import { exec, installInto, type Packed, sharedInstall } from '../helpers/packed-package.js';

const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const work = mkdtempSync(path.join(os.tmpdir(), 'vc-consumer-'));
const project = path.join(work, 'consumer');
// Only the package, as `npm install @verification-service/contracts` leaves it (the run's shared install; read-only).
let bare = '';
let tarball = '';
let packed: Packed;

/** A test file of the sandbox guide: the TypeScript block that starts with `// <name>`. */
function guideExample(name: string): string {
  const guide = readFileSync(path.join(ROOT, 'guides', 'sandbox.md'), 'utf8');
  const block = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).find((c) => c.startsWith(`// ${name}\n`));
  if (!block) throw new Error(`guides/sandbox.md has no \`\`\`ts block starting with "// ${name}"`);
  return block;
}
const GUIDE_EXAMPLES = ['sandbox.test.ts', 'msw.test.ts'];

beforeAll(async () => {
  ({ tarball, packed, project: bare } = await sharedInstall());
  console.log(
    `tarball: ${(packed.size / 1024).toFixed(0)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked, ${packed.files.length} files`,
  );
  await installInto(project, tarball, ['@types/node@20.19.43', 'vitest@4.1.12', 'msw@2.9.0']);
  const fixture = path.join(ROOT, 'test', 'fixtures', 'consumer');
  for (const file of ['consumer.ts', 'tsconfig.json']) copyFileSync(path.join(fixture, file), path.join(project, file));
  for (const name of GUIDE_EXAMPLES) writeFileSync(path.join(project, name), guideExample(name));
  const tsconfig = JSON.parse(readFileSync(path.join(fixture, 'tsconfig.json'), 'utf8'));
  // The package's own declarations are checked with skipLibCheck off by the
  // consumer's tsconfig; here that would check vitest's and vite's too (9 s of CPU).
  tsconfig.compilerOptions = { ...tsconfig.compilerOptions, skipLibCheck: true, noEmit: true };
  writeFileSync(path.join(project, 'tsconfig.guide.json'), JSON.stringify({ ...tsconfig, files: GUIDE_EXAMPLES }));
}, HANG_CEILING_MS);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed tarball', () => {
  // The README's screenshots are served with the hosted reference. 504 KiB as measured, the fetch
  // door's compiled documents and validators included (K3).
  it('is under 552 KiB packed and carries no screenshots', () => {
    expect(packed.files.filter((f) => /\.(jpe?g|png)$/.test(f.path))).toEqual([]);
    expect(packed.size).toBeLessThan(552 * 1024);
  });

  it('installs what the README says: itself, openapi-fetch and what openapi-fetch needs, and nothing else', async () => {
    const { stdout } = await exec('npm', ['ls', '--all', '--parseable'], { cwd: bare });
    const installed = stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((dir) => dir.split(`node_modules${path.sep}`).at(-1)!.split(path.sep).join('/'))
      .sort();
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    expect(manifest.peerDependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
    expect(installed).toEqual(['@verification-service/contracts', 'openapi-fetch', 'openapi-typescript-helpers']);
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const stated = /installs (\w+) packages: ([^\n]*)/.exec(readme);
    expect(stated, 'README.md says how many packages an install brings').not.toBeNull();
    expect([String(installed.length), ['zero', 'one', 'two', 'three', 'four'][installed.length]]).toContain(stated![1]);
    for (const name of installed.slice(1)) expect(stated![2]).toContain(name);
  });

  it('holds every export and the bin, the documented sequences, and no tests or sources', () => {
    const files = packed.files.map((f) => f.path);
    // The documented sequences, run by `verification-contracts conformance`.
    expect(files).toContain('generated/workflows/partner-sequences.arazzo.json');
    const targets = [
      ...Object.values(manifest.exports as Record<string, string | Record<string, string>>).flatMap((target) =>
        typeof target === 'string' ? [target] : Object.values(target),
      ),
      ...Object.values(manifest.bin as Record<string, string>),
    ].map((target) => path.posix.normalize(target));
    expect(targets.filter((target) => !files.includes(target))).toEqual([]);
    expect(files.some((f) => /(^|\/)(test|openapi\/v2|openapi\/partner\/|docs)\//.test(f))).toBe(false);
  });

  it('starts the sandbox command from that install alone, which answers both APIs and keeps its --state, what the end user page did included, across kill -9, as startSandbox reads it', async () => {
    const state = path.join(work, 'not-yet', 'there', 'state.json');
    let id = '';
    // The bare install's command, as a partner's `npx` runs it.
    const command = spawn(
      path.join(bare, 'node_modules', '.bin', 'verification-contracts'),
      ['sandbox', '--port', '0', '--auth-key', 'bare-key', '--access-token', 'bare-token', '--state', state],
      { cwd: bare, env: { ...process.env, NODE_PATH: '' } },
    );
    const listening = new Promise<string>((resolve, reject) => {
      let out = '';
      command.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      command.once('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${out}`)));
    });
    try {
      const url = await listening;
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
      const { url: link, ...verification } = await created.json();
      id = verification.id;
      // The end user's page: the link opens the session, the form sends it to review.
      expect((await fetch(link, { redirect: 'manual' })).status).toBe(200);
      const posted = await fetch(link, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'outcome=review',
      });
      expect([posted.status, posted.headers.get('location')]).toEqual([303, 'https://partner.example/done']);
      const refused = await fetch(`${url}/verifications`, {
        headers: { 'X-Auth-Key': 'wrong', 'Content-Type': 'application/json' },
      });
      expect(refused.status).toBe(401);
      const v2 = await fetch(`${url}/v2/verifications/`, { headers: { Authorization: 'Bearer bare-token' } });
      expect(v2.status).toBe(200);
      const control = (path: string, body?: object) =>
        fetch(`${url}/_sandbox/${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body ?? {}),
        });
      expect((await control('clock/advance', { minutes: 90 })).status).toBe(200);
      expect((await (await control('seed')).json()).verificationIds).toHaveLength(6);
    } finally {
      command.kill('SIGKILL');
    }
    // startSandbox from the package on the same file, no credentials given: the
    // saved key, the moved clock, and the verification as the page left it, webhooks included.
    const script = `import { startSandbox } from '@verification-service/contracts/sandbox';
const sandbox = await startSandbox({ state: ${JSON.stringify(state)} });
const get = async (at) => (await fetch(sandbox.url + at, { headers: { 'X-Auth-Key': sandbox.authKey, 'Content-Type': 'application/json' } })).json();
const clock = await get('/_sandbox/clock');
const { status } = await get('/verifications/${id}');
const history = (await get('/verifications/${id}/webhooks')).webhooks.map((w) => w.payload.data.status).sort();
console.log(JSON.stringify({ key: sandbox.authKey, offset: clock.offsetMinutes, status, history }));
await sandbox.close();`;
    writeFileSync(path.join(project, 'restart.mjs'), script);
    const { stdout } = await exec(process.execPath, ['restart.mjs'], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({
      key: 'bare-key',
      offset: 90,
      status: 'inReview',
      history: ['created', 'inReview', 'started'],
    });
  }, 60_000);

  it(
    'type-checks a strict NodeNext consumer of every entry point and the guide examples, and runs them',
    async () => {
      // Every declaration the consumer sees checked by the native compiler (6 s
      // of CPU where TypeScript 5 took 12 s, T1), and the consumer compiled by
      // TypeScript 5, which emitted the package's declarations, as a partner's build would.
      await Promise.all([
        exec(process.execPath, [TSC_NATIVE, '-p', project, '--noEmit']),
        exec(process.execPath, [TSC, '-p', project, '--skipLibCheck']),
        exec(process.execPath, [TSC_NATIVE, '-p', path.join(project, 'tsconfig.guide.json')]),
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
        'GET /v2/verifications/v-1 Bearer consumer-token null r-7',
        'GET /v2/verifications/?statuses=APPROVED&statuses=REVIEW Bearer consumer-token null r-7',
        'GET /verifications?status=inReview,completed&phoneNumber=%2B4915112345678,%2B31612345678 consumer-key application/json null',
      ]);
      expect(result.refusedBaseUrls).toEqual(['TypeError', 'TypeError']);
      const vitest = await exec(
        process.execPath,
        [path.join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter', 'verbose', ...GUIDE_EXAMPLES],
        { cwd: project, env: { ...process.env, CI: 'true', NODE_OPTIONS: '' } },
      );
      expect(vitest.stdout).toMatch(/2 passed/);
    },
    HANG_CEILING_MS,
  );

  it('passes @arethetypeswrong/cli (ESM-only profile) and publint', async () => {
    // The YAML documents are data files for tools, not modules to import.
    // The ESM-only profile ignores node10 and require() resolution; attw exits
    // non-zero on any other problem.
    const yamlEntries = Object.keys(manifest.exports).filter((e) => e.endsWith('.yaml'));
    const attwArgs = ['--profile', 'esm-only', '--format', 'ascii', '--exclude-entrypoints', ...yamlEntries];
    const attw = await exec(bin('attw'), [tarball, ...attwArgs]).then(
      (r) => ({ code: 0, ...r }),
      (e) => e,
    );
    expect(attw.code, attw.stdout).toBe(0);
    expect(attw.stdout).toContain('"@verification-service/contracts/webhooks"');
    const publint = await exec(bin('publint'), ['run', tarball, '--strict']).catch((e) => e);
    expect(publint.stdout + (publint.stderr ?? ''), 'publint').toMatch(/All good!/);
  });
});
