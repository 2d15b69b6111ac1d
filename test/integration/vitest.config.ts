// The integration tier, `npm run test:integration`: what the fast tier keeps
// out (guides/testing.md, "The two tiers"); it needs Chromium and curl.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import fast from '../vitest.config.js';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    // As the fast tier, for the same reasons (test/vitest.config.ts): two files
    // side by side, one per core, in threads sharing one module cache; its type tests stay there.
    ...fast.test,
    typecheck: { enabled: false },
    include: ['test/integration/*.test.ts'],
    // One Prism mock per API for the whole run, and the scratch folder of the
    // run's one packed-and-installed copy of the package (packed on first use).
    globalSetup: ['test/helpers/mock-servers.ts', 'test/helpers/packed-setup.ts'],
  },
});
