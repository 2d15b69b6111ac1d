// The end-to-end tests: whole workflows of the API team in fresh clones
// (builds, merges, a release). Minutes each, so they run apart from both
// test tiers, by `npm run test:e2e` (.ci/run runs all three). No
// test has a short time limit: a loaded machine makes them slower, never
// failed; the ceiling below only ends a run that hangs.
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
