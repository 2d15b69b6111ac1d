// The TypeScript in README.md compiles against the package's own sources, so
// the first steps it shows cannot drift from the API. Functions a snippet
// only calls (a partner's own handlers) are declared here, not in the README.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const snippets = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
const DECLARED = 'declare function onStatus(id: string, status: string): Promise<void>;\ndeclare function onUser(id: string): Promise<void>;\nexport {};\n';
// Scratch files live under test/ so that the sources' own tsconfig settings apply.
const dir = mkdtempSync(path.join(ROOT, 'test', '.readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README.md TypeScript', () => {
  it('has snippets, and each type-checks strictly against the package', async () => {
    expect(snippets.length).toBeGreaterThanOrEqual(2);
    const files = snippets.map((code, i) => {
      const file = path.join(dir, `snippet-${i}.ts`);
      const local = code.replace(/from 'verification-contracts\/(v2|partner|webhooks)'/g, (_, entry: string) =>
        `from '../../src/${entry === 'webhooks' ? 'webhooks/index' : entry}.js'`,
      );
      writeFileSync(file, DECLARED + local);
      return file;
    });
    const config = path.join(dir, 'tsconfig.json');
    writeFileSync(config, JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { noEmit: true, rootDir: '../..', types: ['node'] }, files }));
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', config]).then(
      () => ({ code: 0, stdout: '' }),
      (err) => ({ code: err.code as number, stdout: String(err.stdout) }),
    );
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  });
});
