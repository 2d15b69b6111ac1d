// The TypeScript in README.md type-checks against this build as a partner
// imports it (strict, NodeNext), so its first steps cannot drift from the
// API; its Worker imports the webhooks guide's handle-webhook.ts, beside it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';
import { scratchDir, typeCheck } from './helpers/typescript-snippets.js';

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const snippets = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
const handleWebhook =
  [...readFileSync(path.join(ROOT, 'guides', 'webhooks.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((b) => b.startsWith('// handle-webhook.ts\n')) ?? '';

describe('README.md TypeScript', () => {
  it('has snippets, and each type-checks strictly against the package', async () => {
    expect(snippets.length).toBeGreaterThanOrEqual(2);
    const report = await typeCheck(await scratchDir('readme-snippets'), {
      ...Object.fromEntries(snippets.map((code, i) => [`snippet-${i}`, code])),
      'handle-webhook': handleWebhook,
    });
    expect(report).toBe('');
  });
});
