// The webhooks guide's vitest example of the receiver check ("Assert what
// your receiver stored"), type-checked and run by vitest as a partner runs
// it, beside a receiver and its store: it passes with a sound receiver, and
// its onCase fails each receiver whose answers pass every case of the check
// but whose store is wrong.
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';
import { run, scratchDir, typeCheck } from '../helpers/typescript-snippets.js';

const example =
  [...readFileSync(path.join(ROOT, 'guides', 'webhooks.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((block) => block.startsWith('// check-receiver.test.ts\n')) ?? '';

/** How the receiver's store goes wrong, while every answer is still a 200. */
type Flaw = 'none' | 'acts-on-repeats' | 'last-write-wins' | 'tie-overwrites';

const STORE = `// The receiver's data, in memory; the reads are what a partner's test asks of its own store.
const acted = new Map<string, number>();
const verifications = new Map<string, { status: string; at: number }>();
export const store = {
  acted,
  verifications,
  async timesActedOn(eventId: string): Promise<number> {
    return acted.get(eventId) ?? 0;
  },
  async verificationStatus(verificationId: string): Promise<string | undefined> {
    return verifications.get(verificationId)?.status;
  },
};
`;

/**
 * A receiver that answers as the service needs, reading the service on a tie as the guide's handler does (so
 * the example's address and key are used); `flaw` spoils only what it stores.
 */
const handler = (flaw: Flaw) => `import { createPartnerClient } from '@verification-service/contracts/partner';
import { verifyWebhookRequest, WebhookSignatureError, type ReceivedWebhookEvent } from '@verification-service/contracts/webhooks';
import { store } from './store.js';

const flaw: string = ${JSON.stringify(flaw)};
const handled = new Set<string>();

export async function handleWebhook(request: Request, env: { AUTH_KEY?: string; PARTNER_URL?: string }): Promise<Response> {
  let event: ReceivedWebhookEvent;
  try {
    event = await verifyWebhookRequest(request, env.AUTH_KEY ?? '');
  } catch (err) {
    return new Response(null, { status: err instanceof WebhookSignatureError ? 401 : 400 });
  }
  if (event.dataType === 'verification' && Date.parse(event.data.updatedAt ?? event.createdAt) === store.verifications.get(event.data.verificationId)?.at) {
    const partner = createPartnerClient({ baseUrl: env.PARTNER_URL ?? '', authKey: env.AUTH_KEY ?? '' });
    const path = { verificationId: event.data.verificationId };
    const { response } = await partner.GET('/verifications/{verificationId}', { params: { path } });
    // The check's ids are fresh: anything but the service's 404 means it was not read (a wrong key or address).
    if (response.status !== 404) return new Response(null, { status: 500 });
  }
  if (handled.has(event.eventId) && flaw !== 'acts-on-repeats') return new Response(null, { status: 200 });
  handled.add(event.eventId);
  store.acted.set(event.eventId, (store.acted.get(event.eventId) ?? 0) + 1);
  if (event.dataType === 'verification') {
    const at = Date.parse(event.data.updatedAt ?? event.createdAt);
    const stored = store.verifications.get(event.data.verificationId);
    const replaces =
      stored === undefined || flaw === 'last-write-wins' || (flaw === 'tie-overwrites' ? at >= stored.at : at > stored.at);
    if (replaces) store.verifications.set(event.data.verificationId, { status: event.data.status, at });
  }
  return new Response(null, { status: 200 });
}
`;

const FLAWS: Flaw[] = ['none', 'acts-on-repeats', 'last-write-wins', 'tie-overwrites'];

interface VitestJsonReport {
  testResults: { name: string; assertionResults: { status: string; failureMessages: string[] }[] }[];
}

describe("the webhooks guide's vitest example of the receiver check", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await scratchDir('webhooks-check-guide');
    for (const flaw of FLAWS) {
      const folder = path.join(dir, flaw);
      await mkdir(folder, { recursive: true });
      await writeFile(path.join(folder, 'check-receiver.test.ts'), example);
      await writeFile(path.join(folder, 'handle-webhook.ts'), handler(flaw));
      await writeFile(path.join(folder, 'store.ts'), STORE);
    }
  });

  it('is there, and type-checks against the package (as `tsc --init` sets a project up)', async () => {
    expect(example).toContain('onCase');
    const report = await typeCheck(path.join(dir, 'typecheck'), {
      'check-receiver.test': example,
      'handle-webhook': handler('none'),
      store: STORE,
    });
    expect(report).toBe('');
  });

  it(
    'passes with a receiver that keeps the newest data, and fails each receiver whose answers pass but whose store is wrong',
    async () => {
      const include = FLAWS.map((flaw) => `${flaw}/check-receiver.test.ts`);
      await writeFile(
        path.join(dir, 'vitest.config.mjs'),
        `export default { test: { include: ${JSON.stringify(include)}, testTimeout: 60000 } };\n`,
      );
      const output = path.join(dir, 'report.json');
      await rm(output, { force: true });
      // A failing example exits 1: the report says which, and why.
      await run(
        process.execPath,
        [path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=json', `--outputFile=${output}`],
        { cwd: dir, env: { ...process.env, CI: 'true', NODE_OPTIONS: '' } },
      ).catch(() => undefined);
      const report = JSON.parse(await readFile(output, 'utf8')) as VitestJsonReport;
      const outcome = (flaw: Flaw) => {
        const file = report.testResults.find((r) => r.name === path.join(dir, flaw, 'check-receiver.test.ts'));
        return file?.assertionResults.map((a) => [a.status, a.failureMessages.join('\n')]);
      };
      expect(outcome('none')).toEqual([['passed', '']]);
      // The first case whose store is wrong stops the check: its own assertion fails.
      expect(outcome('acts-on-repeats')).toEqual([['failed', expect.stringContaining('expected 2 to be 1')]]);
      expect(outcome('last-write-wins')).toEqual([
        ['failed', expect.stringContaining("expected 'created' to be 'completed'")],
      ]);
      expect(outcome('tie-overwrites')).toEqual([
        ['failed', expect.stringContaining("expected 'inReview' to be 'completed'")],
      ]);
    },
    HANG_CEILING_MS,
  );
});
