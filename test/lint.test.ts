// `npm run lint` (which `npm test` runs first) holds the code to one shape and
// one set of rules: Biome with the repository's biome.jsonc, then knip. Here
// Biome meets, in a scratch project with that configuration, a file with a
// `debugger`, one with an unused variable and one laid out otherwise than it
// would lay it out: each fails the run, named with its rule.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';

const BIOME = path.join(ROOT, 'node_modules', '.bin', 'biome');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const scratch = mkdtempSync(path.join(tmpdir(), 'vc-lint-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the lint script's Biome command on a scratch project holding `files` under src/; its exit code and output. */
async function biomeOn(name: string, files: Record<string, string>) {
  const dir = path.join(scratch, name);
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  copyFileSync(path.join(ROOT, 'biome.jsonc'), path.join(dir, 'biome.jsonc'));
  // biome.jsonc reads .gitignore through git, as in the repository.
  await promisify(execFile)('git', ['init', '-q'], { cwd: dir });
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules\n');
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, 'src', file), text);
  const command = /biome (ci(?: --[\w-]+)*)/.exec(manifest.scripts.lint)![1].split(' ');
  return new Promise<{ code: number; output: string }>((resolve) =>
    execFile(BIOME, [...command, '--colors=off', '.'], { cwd: dir }, (err, stdout, stderr) =>
      resolve({ code: Number((err as { code?: number } | null)?.code ?? 0), output: stdout + stderr }),
    ),
  );
}

describe('npm run lint', () => {
  it('runs Biome and knip, and npm test runs it first', () => {
    expect(manifest.scripts.lint).toMatch(/^\(biome ci .*\) && knip &&/);
    expect(manifest.scripts.test).toMatch(/^npm run lint && /);
    // A failed Biome run ends by saying what rewrites the files it named.
    expect(manifest.scripts.lint).toMatch(/biome ci [^|]*\|\| \(echo "[^"]*npm run format rewrites/);
    expect(Object.keys(manifest.devDependencies)).toEqual(expect.arrayContaining(['@biomejs/biome', 'knip']));
    expect(manifest.devDependencies['@biomejs/biome']).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('passes a file formatted and clean', async () => {
    const { code, output } = await biomeOn('clean', { 'ok.ts': 'export const double = (x: number) => x * 2;\n' });
    expect(code, output).toBe(0);
  });

  it('fails on a debugger statement, naming the file and the rule', async () => {
    const { code, output } = await biomeOn('debugger', {
      'debug.ts': 'export function f() {\n  debugger;\n  return 2;\n}\n',
    });
    expect(code).toBe(1);
    expect(output).toMatch(/src\/debug\.ts:2:3 lint\/suspicious\/noDebugger/);
  });

  it('fails on an unused variable, naming the file and the rule', async () => {
    const { code, output } = await biomeOn('unused', {
      'unused.ts': 'export function f() {\n  const unused = 1;\n  return 2;\n}\n',
    });
    expect(code).toBe(1);
    expect(output).toMatch(/src\/unused\.ts:2:9 lint\/correctness\/noUnusedVariables/);
  });

  it('fails on a file laid out otherwise than the formatter would, naming it', async () => {
    const { code, output } = await biomeOn('format', { 'packed.ts': 'export const g = ( x:number ) =>   x+1\n' });
    expect(code).toBe(1);
    expect(output).toMatch(/src\/packed\.ts format/);
  });
});
