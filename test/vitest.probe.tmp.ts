import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/cpu-probe.tmp.ts'],
    globalSetup: ['test/helpers/mock-servers.ts', 'test/helpers/packed-setup.ts'],
    reporters: ['default', './test/helpers/file-times-reporter.ts'],
    // vitest's default on 2 cores is 1 worker; most slow files wait on other
    // processes (Chromium, npm, tsc, Prism), so three files run side by side.
    maxWorkers: 3,
    // Each worker runs file after file in one process with one module cache:
    // a fresh process per file cost about 45 s of CPU per run (starting
    // Node and vitest, importing the same helpers, Ajv and the sandbox again).
    // The test files keep no state outside their own module and folders.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    typecheck: {
      enabled: true,
      // The native TypeScript 7 (scripts/lib/paths.mjs): 3 s of CPU where TypeScript 5 takes 17 s.
      checker: 'node_modules/typescript-native/bin/tsc',
      include: ['test/**/*.test-d.ts'],
      tsconfig: 'test/tsconfig.json',
    },
  },
});
