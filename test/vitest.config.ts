// The fast tier, `npm test` after the lint: the tests that run in process
// (and short child processes of the package's own scripts and command line),
// with no browser, no other runtime, no Prism, no packed tarball and no git
// clone. What starts those is the integration tier (test/integration/, its
// own config; guides/testing.md, "The two tiers"); whole workflows in fresh
// clones are test/e2e/.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { TSC_NATIVE } from '../scripts/lib/paths.mjs';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    // The files directly in test/: test/integration/ and test/e2e/ have their own configs.
    include: ['test/*.test.ts'],
    // Two files side by side, one per core: the suite is bound by CPU (its
    // processes keep both cores busy), and a third worker only added a third
    // copy of every shared module (measured on the whole suite before the
    // tiers: 128 s with 2 workers, 135-150 s with 3).
    maxWorkers: 2,
    // Each worker runs file after file with one module cache: a fresh process
    // per file cost about 45 s of CPU per run (starting Node and vitest,
    // importing the same helpers, Ajv and the sandbox again). The test files
    // keep no state outside their own module and folders.
    isolate: false,
    // Worker threads rather than child processes: in a fresh clone on a quiet
    // 2-core machine the suite took 117-130 s against 128-146 s (guides/testing.md).
    pool: 'threads',
    // Files start in vitest's own order: a slowest-first sequencer fed by a
    // table of file times measured no faster in a fresh clone, where vitest
    // starts the largest files first (guides/testing.md, "Keeping the suite fast").
    testTimeout: 60_000,
    hookTimeout: 60_000,
    typecheck: {
      enabled: true,
      // The native TypeScript 7 (scripts/lib/paths.mjs): 3 s of CPU where TypeScript 5 takes 17 s.
      checker: TSC_NATIVE,
      include: ['test/*.test-d.ts'],
      tsconfig: 'test/tsconfig.json',
    },
  },
});
