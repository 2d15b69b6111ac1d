// The runtimes test/runtime-webhooks.test.ts runs the webhook cases in, with
// the words the README uses for each (test/readme-claims.test.ts).
export const TESTED_RUNTIMES = [
  { id: 'Node', readme: 'Node 20, 22 and 24' },
  { id: 'Bun', readme: 'Bun' },
  { id: 'Deno', readme: 'Deno' },
  { id: 'workerd (no nodejs_compat)', readme: 'Cloudflare Workers (without `nodejs_compat`)' },
  { id: 'headless Chromium', readme: 'browsers' },
] as const;

/** The README's sentence on runtimes, built from the list so the two cannot drift apart. */
export const RUNTIMES_SENTENCE = `\`@verification-service/contracts/webhooks\` runs unchanged on ${TESTED_RUNTIMES.slice(0, -1)
  .map((r) => r.readme)
  .join(', ')} and in ${TESTED_RUNTIMES.at(-1)!.readme}.`;
