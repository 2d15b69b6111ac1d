// What a webhook receiver weighs at the edge: Workers that import one
// function of the package, bundled as wrangler bundles them (esbuild, browser
// platform, minified ESM). Shared by `npm run bench -- edge` and
// test/integration/runtime-installed.test.ts, which asserts the budgets.
import { build } from 'esbuild';

/** Bytes, minified; 1 KB is 1,000 bytes, the unit the edge budgets are set in. */
const VERIFY_BUDGET = 2_000;
const PARSE_BUDGET = 30_000;

/** A Worker that verifies and parses with `fn` (`event` from `call`), answering each documented error. */
const parsingReceiver = (
  fn,
  call,
) => `import { ${fn}, WebhookPayloadError, WebhookSignatureError } from '@verification-service/contracts/webhooks';
export default {
  async fetch(request, env) {
    try {
      const event = ${call};
      await env.QUEUE.send(event.eventId);
      return new Response(null, { status: 200 });
    } catch (err) {
      if (err instanceof WebhookSignatureError) return new Response(err.message, { status: 401 });
      if (err instanceof WebhookPayloadError) return new Response(err.message, { status: 400 });
      throw err;
    }
  },
};`;

/**
 * The package's receivers, by the function they import; `budget` is the most a bundle may weigh.
 * @type {Record<string, { budget: number, parses: boolean, source: string }>}
 */
export const RECEIVERS = {
  verifyWebhookSignature: {
    budget: VERIFY_BUDGET,
    parses: false,
    source: `import { verifyWebhookSignature } from '@verification-service/contracts/webhooks';
export default {
  async fetch(request, env) {
    const body = await request.arrayBuffer();
    const ok = verifyWebhookSignature(body, request.headers.get('x-signature'), env.AUTH_KEY);
    return new Response(null, { status: ok ? 200 : 401 });
  },
};`,
  },
  verifyWebhookRequestBody: {
    budget: VERIFY_BUDGET,
    parses: false,
    source: `import { verifyWebhookRequestBody } from '@verification-service/contracts/webhooks';
export default {
  async fetch(request, env) {
    const body = await verifyWebhookRequestBody(request, env.AUTH_KEY);
    if (body === null) return new Response(null, { status: 401 });
    await env.QUEUE.send(body);
    return new Response(null, { status: 200 });
  },
};`,
  },
  verifyWebhookRequest: {
    budget: PARSE_BUDGET,
    parses: true,
    source: parsingReceiver('verifyWebhookRequest', 'await verifyWebhookRequest(request, env.AUTH_KEY)'),
  },
  parseWebhookEvent: {
    budget: PARSE_BUDGET,
    parses: true,
    source: parsingReceiver(
      'parseWebhookEvent',
      "parseWebhookEvent(await request.arrayBuffer(), request.headers.get('x-signature'), env.AUTH_KEY)",
    ),
  },
};

/**
 * A Worker's source bundled as wrangler bundles one, resolving packages from `dir`; `alias` maps a package
 * path to a file (the bench bundles this checkout's build, not an installed tarball).
 * @param {string} dir
 * @param {string} source
 * @param {Record<string, string>} [alias]
 */
export async function bundleReceiver(dir, source, alias) {
  const result = await build({
    stdin: { contents: source, resolveDir: dir, loader: 'js' },
    absWorkingDir: dir,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    alias,
  });
  return result.outputFiles[0].text;
}
