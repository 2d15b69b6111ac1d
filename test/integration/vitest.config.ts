// The integration tier, `npm run test:integration`: the tests that start what
// the fast tier (`npm test`, test/vitest.config.ts) keeps out: Chromium, workerd,
// Bun and Deno, Prism mocks, the packed and installed tarball, git clones,
// `npm run dev`, and child processes too costly for the fast tier's budget
// (guides/testing.md, "The two tiers"). Slower and needing Debian's Chromium
// and curl (.ci/run installs them), so apart: the fast tier stays the one to
// run after each change.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import fast from '../vitest.config.js';

// As the fast tier, for the same reasons (test/vitest.config.ts): two files
// side by side, one per core, in threads sharing one module cache.
const { maxWorkers, isolate, pool, testTimeout, hookTimeout } = fast.test!;

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/integration/*.test.ts'],
    // One Prism mock per API for the whole run, and the scratch folder of the
    // run's one packed-and-installed copy of the package (packed on first use).
    globalSetup: ['test/helpers/mock-servers.ts', 'test/helpers/packed-setup.ts'],
    maxWorkers,
    isolate,
    pool,
    testTimeout,
    hookTimeout,
  },
});
