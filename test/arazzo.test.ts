// The documented partner sequences (Arazzo workflows) run by the package's
// conformance runner against the sandbox, while a loopback receiver takes the
// webhooks it delivers and checks them with the package's webhook toolkit.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/conformance/report.js';
import { runConformance } from '../src/conformance/run.js';
import { serveSandbox, type Sandbox } from '../src/sandbox/server.js';
import { parseWebhookEvent, verifyWebhookSignature, type WebhookEvent } from '../src/webhooks/index.js';
import { runTool } from '../scripts/lib/run.mjs';
import { knownEvent } from './helpers/known-event.js';
import { send } from './helpers/served-sandbox.js';
import { NEW_USER_SEQUENCE } from './helpers/sequences.js';

const ARAZZO = 'openapi/workflows/partner-sequences.arazzo.yaml';
const WORKFLOWS = ['new-user', 'merge', 'manual-review', 'revert', 'webhook-delivery', 'key-rotation'];
const FIRST_KEY = `sbx_arazzo_${randomBytes(12).toString('hex')}`;

let sandbox: Sandbox;
let receiver: Server;
let receiverUrl: string;
let workDir: string;
let keyFile: string;
let report: ConformanceReport;
const inputs: Record<string, string> = {};
/** What the receiver got, as it got it. */
const deliveries: { method?: string; path?: string; contentType?: string; signature?: string; rawBody: string }[] = [];

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    const signature = req.headers['x-signature'];
    deliveries.push({
      method: req.method,
      path: req.url,
      contentType: req.headers['content-type'],
      signature: Array.isArray(signature) ? signature.join(',') : signature,
      rawBody: (await buffer(req)).toString('utf8'),
    });
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

  sandbox = await serveSandbox({ port: 0, validateResponses: true, authKey: FIRST_KEY });
  const put = await send(sandbox.url, FIRST_KEY, 'PUT', '/partners', { webhookUrl: receiverUrl });
  expect(put.status).toBe(200);
  expect(put.body.webhookUrl).toBe(receiverUrl);

  workDir = await mkdtemp(path.join(tmpdir(), 'arazzo-'));
  keyFile = path.join(workDir, 'new-key');
  // The sequences only: no generated requests, so every webhook comes from a workflow.
  report = await runConformance({
    api: 'partner',
    baseUrl: sandbox.url,
    credential: FIRST_KEY,
    seed: 1,
    requests: 0,
    maxRequests: 1000,
    rate: 0,
    allowWrites: true,
    checkDelivery: true,
    rotateKeyFile: keyFile,
  });
  // The partner user ids and phone numbers the runner gave each workflow, to tell their webhooks apart.
  for (const w of report.workflows) Object.assign(inputs, w.inputs);
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

const workflowStatuses = () => Object.fromEntries(report.workflows.map((w) => [w.workflowId, w.status]));
const reportText = () => JSON.stringify({ workflows: report.workflows, violations: report.violations }, null, 2);

/** Signature keys while the run rotated once: the sandbox's current key and the first one. */
const currentKey = async () => sandbox.partner.activeAuthKey();

/** The events delivered, parsed with `keys`, as the receiver got them. */
const received = (keys: string[]): WebhookEvent[] =>
  deliveries.map((d) => knownEvent(parseWebhookEvent(d.rawBody, d.signature, keys)));

/** Where each event stands in the order the sandbox emitted them (its webhook records are kept in that order). */
function emissionOrder(): Map<string, number> {
  const order = new Map<string, number>();
  for (const entry of sandbox.partner.store.webhooks.values())
    if (!order.has(entry.eventId)) order.set(entry.eventId, order.size);
  return order;
}

/**
 * The events delivered, in the order the sandbox generated them: the
 * documents list each scenario's events in that order and promise no
 * delivery order, so the receiver may get them either way round.
 */
function events(keys: string[]): WebhookEvent[] {
  const order = emissionOrder();
  return received(keys).sort((a, b) => order.get(a.eventId)! - order.get(b.eventId)!);
}

/** The data of the verification events delivered about this partner user id, in the order they were generated. */
const verificationsOf = (delivered: WebhookEvent[], externalUserId: string) =>
  delivered.flatMap((e) => (e.dataType === 'verification' && e.data.externalUserId === externalUserId ? [e.data] : []));

/**
 * The event types delivered about the verifications of these partner user
 * ids and about the users they completed into (or were reverted from), in
 * the order they were generated.
 */
function sequenceOf(delivered: WebhookEvent[], externalUserIds: string[]): string[] {
  const verificationEvents = delivered.filter(
    (e) => e.dataType === 'verification' && externalUserIds.includes(e.data.externalUserId ?? ''),
  );
  const userIds = new Set(
    verificationEvents
      .flatMap((e) => (e.dataType === 'verification' ? [e.data.userId, e.data.previousUserId] : []))
      .filter(Boolean),
  );
  return delivered
    .filter((e) => verificationEvents.includes(e) || (e.dataType === 'user' && userIds.has(e.data.userId)))
    .map((e) => e.eventType);
}

describe('the Arazzo description', () => {
  it('lints with zero errors and zero warnings', async () => {
    // runTool rejects, with Redocly's output, on a non-zero exit.
    const output = await runTool('redocly', ['lint', ARAZZO, '--format=json'], { quiet: true });
    const report = JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1));
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });
});

describe('the conformance runner against the sandbox', () => {
  it('runs every workflow of the file', () => {
    expect(report.workflows.map((w) => w.workflowId).sort()).toEqual([...WORKFLOWS].sort());
    // The report names each workflow's inputs, never the credential.
    expect(JSON.stringify(report.workflows)).not.toContain(FIRST_KEY);
  });

  // webhook-delivery needs delivery: its history records turn `success: true`
  // only when the sandbox has POSTed the event to the webhookUrl and it answered 200.
  it.each(WORKFLOWS)('workflow %s passes', (workflowId) => {
    expect(workflowStatuses()[workflowId], reportText()).toBe('passed');
  });

  it('the rotation took effect: the old key is refused and the sandbox answers the new one', async () => {
    const key = await currentKey();
    expect(key).not.toBe(FIRST_KEY);
    expect(report.rotation).toEqual({ keyFile, written: true });
    expect((await readFile(keyFile, 'utf8')).trim()).toBe(key);
    expect((await send(sandbox.url, FIRST_KEY, 'GET', '/partners')).status).toBe(401);
    const partner = await send(sandbox.url, key, 'GET', '/partners');
    expect(partner.status).toBe(200);
    expect(partner.body.webhookUrl).toBe(receiverUrl);
  });

  it('finds no violation, and every answer the sandbox gave matched the contract', () => {
    expect(report.violations, reportText()).toEqual([]);
    expect(sandbox.violations).toEqual([]);
  });
});

// Everything below needs webhook delivery: the receiver gets nothing without it.
describe('the webhooks the receiver got', () => {
  it('were POSTed as JSON with an X-SIGNATURE of the current or the previous key, and parse', async () => {
    const keys = [await currentKey(), FIRST_KEY];
    await expect.poll(() => deliveries.length).toBeGreaterThanOrEqual(30);
    for (const d of deliveries) {
      expect(d.method).toBe('POST');
      expect(d.path).toBe('/webhooks');
      expect(d.contentType).toMatch(/^application\/json\b/);
      expect(verifyWebhookSignature(d.rawBody, d.signature, keys), d.rawBody).toBe(true);
      expect(verifyWebhookSignature(d.rawBody, d.signature, 'not-a-key-of-this-sandbox')).toBe(false);
    }
    const all = received(keys);
    // The receiver answered 200 every time, so nothing was sent twice.
    expect(new Set(all.map((e) => e.eventId)).size).toBe(all.length);
    // Each arrived once; in no promised order, so the sequences below are read in the order the sandbox emitted them.
    const order = emissionOrder();
    expect(all.filter((e) => !order.has(e.eventId))).toEqual([]);
  });

  // The documents' scenarios with one verification: its events, and its statuses, in the order generated.
  const SCENARIOS: [string, string, string[], string[]][] = [
    [
      'new user: created, opened, completed with user.created, then two user.updated',
      'newUserExternalUserId',
      [...NEW_USER_SEQUENCE],
      ['created', 'started', 'completed'],
    ],
    [
      'manual review: created, opened, in review, completed with user.created',
      'reviewExternalUserId',
      ['verification.created', 'verification.updated', 'verification.updated', 'verification.updated', 'user.created'],
      ['created', 'started', 'inReview', 'completed'],
    ],
    [
      'webhook-delivery workflow: created, opened, completed with user.created',
      'deliveryExternalUserId',
      ['verification.created', 'verification.updated', 'verification.updated', 'user.created'],
      ['created', 'started', 'completed'],
    ],
  ];
  it.each(SCENARIOS)('%s', async (_, input, sequence, statuses) => {
    const keys = [await currentKey(), FIRST_KEY];
    await expect.poll(() => sequenceOf(events(keys), [inputs[input]])).toEqual(sequence);
    expect(verificationsOf(events(keys), inputs[input]).map((v) => v.status)).toEqual(statuses);
  });

  it('merge: the second verification ends with verification.updated and user.merged into the first user', async () => {
    const keys = [await currentKey(), FIRST_KEY];
    const ids = [inputs.mergeFirstExternalUserId, inputs.mergeSecondExternalUserId];
    await expect
      .poll(() => sequenceOf(events(keys), ids))
      .toEqual([
        'verification.created',
        'verification.updated',
        'verification.updated',
        'user.created',
        'verification.created',
        'verification.updated',
        'verification.updated',
        'user.merged',
      ]);
    const all = events(keys);
    const completedSecond = verificationsOf(all, inputs.mergeSecondExternalUserId).filter(
      (v) => v.status === 'completed',
    );
    expect(completedSecond).toHaveLength(1);
    const mergedIntoUser = all.flatMap((e) =>
      e.eventType === 'user.merged' && e.data.userId === completedSecond[0].userId ? [e.data] : [],
    );
    expect(mergedIntoUser).toHaveLength(1);
    expect((mergedIntoUser[0].externalUsers ?? []).map((u) => u.id).sort()).toEqual([...ids].sort());
  });

  it('revert: user.deleted, then verification.updated to reverted with previousUserId', async () => {
    const keys = [await currentKey(), FIRST_KEY];
    await expect
      .poll(() => sequenceOf(events(keys), [inputs.revertExternalUserId]))
      .toEqual([
        'verification.created',
        'verification.updated',
        'verification.updated',
        'user.created',
        'user.deleted',
        'verification.updated',
      ]);
    const mine = verificationsOf(events(keys), inputs.revertExternalUserId);
    const completed = mine.find((v) => v.status === 'completed');
    expect(mine.at(-1)?.status).toBe('reverted');
    expect(mine.at(-1)?.previousUserId).toBe(completed?.userId);
  });

  it('key rotation: the verification created with the new key is signed with the new key only', async () => {
    const newKey = await currentKey();
    await expect
      .poll(() => sequenceOf(events([newKey, FIRST_KEY]), [inputs.rotationExternalUserId]))
      .toEqual(['verification.created']);
    const delivery = deliveries.find((d) => {
      const e = JSON.parse(d.rawBody) as WebhookEvent;
      return e.dataType === 'verification' && e.data.externalUserId === inputs.rotationExternalUserId;
    })!;
    expect(verifyWebhookSignature(delivery.rawBody, delivery.signature, newKey)).toBe(true);
    expect(verifyWebhookSignature(delivery.rawBody, delivery.signature, FIRST_KEY)).toBe(false);
    expect(() => parseWebhookEvent(delivery.rawBody, delivery.signature, FIRST_KEY)).toThrow(/X-SIGNATURE/);
  });
});
