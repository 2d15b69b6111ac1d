// The TypeScript in README.md type-checks against the package as a partner
// imports it (strict, NodeNext, `@verification-service/contracts/<entry>` resolving to
// this build's declarations, which test/drift.test.ts holds to the sources),
// so the first steps it shows cannot drift from the API. Functions a snippet
// only calls (a partner's own handlers) are declared here, not in the README;
// `onStatus` takes `updatedAt` as the webhook types it (it may be absent or null).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';
import { scratchDir, typeCheck } from './helpers/typescript-snippets.js';

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const snippets = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
const DECLARED =
  'declare function onStatus(id: string, status: string, updatedAt: string | null | undefined): Promise<void>;\ndeclare function onUser(id: string, createdAt: string): Promise<void>;\n';

describe('README.md TypeScript', () => {
  it('has snippets, and each type-checks strictly against the package', async () => {
    expect(snippets.length).toBeGreaterThanOrEqual(2);
    const report = await typeCheck(
      await scratchDir('readme-snippets'),
      Object.fromEntries(snippets.map((code, i) => [`snippet-${i}`, DECLARED + code])),
    );
    expect(report).toBe('');
  });
});
