// The runtimes test/integration/runtime-installed.test.ts runs the webhook cases in, with
// the words the README uses for each (test/readme-claims.test.ts).
export const TESTED_RUNTIMES = [
  { id: 'Node', readme: 'Node 20, 22 and 24' },
  { id: 'Bun', readme: 'Bun' },
  { id: 'Deno', readme: 'Deno' },
  { id: 'workerd (no nodejs_compat)', readme: 'Cloudflare Workers (without `nodejs_compat`)' },
  { id: 'headless Chromium', readme: 'browsers' },
] as const;
