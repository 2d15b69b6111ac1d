// What a webhook receiver weighs at the edge: Workers that import one
// function of the installed package, bundled as wrangler bundles them
// (esbuild, browser platform, minified ESM), beside the same receiver written
// with two libraries made for verifying webhooks. Shared by the bench (part 3)
// and test/integration/edge-bundles.test.ts, which asserts the budgets.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { ROOT } from '../paths.mjs';
import { MeasureError, runCommand } from './proc.mjs';

/** Bytes, minified; 1 KB is 1,000 bytes, the unit the edge budgets are set in. */
const VERIFY_BUDGET = 2_000;
const PARSE_BUDGET = 30_000;

const errorAnswers = `      if (err instanceof WebhookSignatureError) return new Response(err.message, { status: 401 });
      if (err instanceof WebhookPayloadError) return new Response(err.message, { status: 400 });
      throw err;`;

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
    source: `import { verifyWebhookRequest, WebhookPayloadError, WebhookSignatureError } from '@verification-service/contracts/webhooks';
export default {
  async fetch(request, env) {
    let event;
    try {
      event = await verifyWebhookRequest(request, env.AUTH_KEY);
    } catch (err) {
${errorAnswers}
    }
    switch (event.eventType) {
      case 'verification.updated':
        await env.QUEUE.send(event.data.verificationId);
        break;
      default:
        console.log('ignored', event.eventType, event.eventId);
    }
    return new Response(null, { status: 200 });
  },
};`,
  },
  parseWebhookEvent: {
    budget: PARSE_BUDGET,
    parses: true,
    source: `import { parseWebhookEvent, WebhookPayloadError, WebhookSignatureError } from '@verification-service/contracts/webhooks';
export default {
  async fetch(request, env) {
    try {
      const event = parseWebhookEvent(await request.arrayBuffer(), request.headers.get('x-signature'), env.AUTH_KEY);
      await env.QUEUE.send(event.eventId);
      return new Response(null, { status: 200 });
    } catch (err) {
${errorAnswers}
    }
  },
};`,
  },
};

/**
 * The same verify-only receiver with the libraries the issue measured against (devDependencies).
 * @type {Record<string, string>}
 */
const ANCHORS = {
  '@octokit/webhooks-methods verify': `import { verify } from '@octokit/webhooks-methods';
export default {
  async fetch(request, env) {
    const ok = await verify(env.WEBHOOK_SECRET, await request.text(), request.headers.get('x-hub-signature-256'));
    return new Response(null, { status: ok ? 200 : 401 });
  },
};`,
  'standardwebhooks Webhook.verify': `import { Webhook } from 'standardwebhooks';
export default {
  async fetch(request, env) {
    try {
      new Webhook(env.WEBHOOK_SECRET).verify(await request.text(), Object.fromEntries(request.headers));
      return new Response(null, { status: 200 });
    } catch {
      return new Response(null, { status: 401 });
    }
  },
};`,
};

/** A Worker's source bundled as wrangler bundles one, resolving packages from `dir`. */
export async function bundleReceiver(dir, source) {
  const result = await build({
    stdin: { contents: source, resolveDir: dir, loader: 'js' },
    absWorkingDir: dir,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

/** Bytes of each receiver bundled from the packed, installed package, and of each anchor. */
export async function benchEdgeBundles({ log }) {
  const work = await mkdtemp(path.join(os.tmpdir(), 'vc-bench-edge-'));
  try {
    log('  edge bundles: npm pack, install into a scratch project, bundle each receiver');
    const pack = await runCommand('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: ROOT,
    });
    const [packed] = JSON.parse(pack.stdout || 'null') ?? [];
    if (!packed)
      throw new MeasureError(
        `npm pack failed (exit ${pack.code}), so the edge bundles could not be measured:\n${pack.stderr.trim().slice(-1000)}`,
      );
    const project = path.join(work, 'receiver');
    await mkdir(project);
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'receiver', private: true, type: 'module' }),
    );
    const install = await runCommand(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(work, packed.filename)],
      { cwd: project, timeoutMs: 150_000 },
    );
    if (install.code !== 0)
      throw new MeasureError(
        `npm install of the packed tarball failed (exit ${install.code}):\n${install.stderr.trim().slice(-1000)}`,
      );
    const receivers = {};
    for (const [name, { source, budget }] of Object.entries(RECEIVERS))
      receivers[name] = { bytes: Buffer.byteLength(await bundleReceiver(project, source)), budget };
    const anchors = {};
    for (const [name, source] of Object.entries(ANCHORS))
      anchors[name] = { bytes: Buffer.byteLength(await bundleReceiver(ROOT, source)) };
    return { receivers, anchors };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
