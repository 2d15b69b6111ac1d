// The end-to-end tests (`npm run test:e2e`): whole workflows of the API team
// in fresh clones, minutes each. The ceiling below only ends a run that hangs.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/e2e/**/*.test.ts'],
    // One at a time: each one's builds already keep both cores busy.
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 60 * 60_000,
    hookTimeout: 10 * 60_000,
  },
});
