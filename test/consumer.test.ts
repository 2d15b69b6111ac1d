// The package as a consumer gets it: packed, installed from the tarball into
// a fresh project, type-checked and run there; its exports checked with
// @arethetypeswrong/cli and publint.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';

const exec = promisify(execFile);
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
const work = mkdtempSync(path.join(os.tmpdir(), 'vc-consumer-'));
const project = path.join(work, 'consumer');
let tarball = '';
let packed: { size: number; unpackedSize: number; files: { path: string }[] };

beforeAll(async () => {
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT });
  packed = JSON.parse(stdout)[0];
  tarball = path.join(work, (packed as unknown as { filename: string }).filename);
  console.log(`tarball: ${(packed.size / 1024).toFixed(0)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked, ${packed.files.length} files`);

  const fixture = path.join(ROOT, 'test', 'fixtures', 'consumer');
  await exec('mkdir', ['-p', project]);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  for (const file of ['consumer.ts', 'tsconfig.json']) copyFileSync(path.join(fixture, file), path.join(project, file));
  // openapi-fetch and @types/node come from the npm cache when they can.
  await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, '@types/node@20.19.43'], { cwd: project });
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed tarball', () => {
  it('holds what consumers need and nothing else', () => {
    const files = packed.files.map((f) => f.path);
    for (const file of files) {
      expect(file, file).toMatch(/^(generated\/lib\/|generated\/openapi\/|generated\/workflows\/|package\.json$|README\.md$)/);
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

  it('type-checks a strict NodeNext consumer of every entry point, and runs it', async () => {
    await exec(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project]);
    const { stdout } = await exec(process.execPath, [path.join(project, 'dist', 'consumer.js')], { cwd: project });
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({
      status: 'APPROVED',
      estimatedAge: 'over18',
      refused: 'mismatch',
      verified: true,
      openapi: ['3.1.0', '3.1.0'],
    });
    expect(result.userId).toEqual(expect.any(String));
    expect(result.seen).toEqual([
      'GET /v2/verifications/v-1 Bearer consumer-token',
      'GET /v2/verifications/?statuses=APPROVED&statuses=REVIEW Bearer consumer-token',
      'GET /verifications?status=inReview,completed consumer-key',
    ]);
  });

  it('runs the installed command line', async () => {
    const { stdout } = await exec(path.join(project, 'node_modules', '.bin', 'verification-contracts'), ['webhooks', '--help']);
    expect(stdout).toContain('webhooks send');
  });

  it('passes @arethetypeswrong/cli (ESM-only profile) and publint', async () => {
    // The YAML documents are data files for tools, not modules to import.
    // The ESM-only profile ignores node10 and require() resolution; attw exits
    // non-zero on any other problem.
    const yamlEntries = Object.keys(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).exports).filter((e) => e.endsWith('.yaml'));
    const attw = await exec(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--exclude-entrypoints', ...yamlEntries]).then(
      (r) => ({ code: 0, ...r }),
      (e) => e,
    );
    expect(attw.code, attw.stdout).toBe(0);
    expect(attw.stdout).toContain('"verification-contracts/webhooks"');
    const publint = await exec(bin('publint'), ['run', tarball, '--strict']).catch((e) => e);
    expect(publint.stdout + (publint.stderr ?? ''), 'publint').toMatch(/All good!/);
  });
});
