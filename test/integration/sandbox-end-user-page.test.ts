// The end user's page in Chromium: its buttons move the session through the
// lifecycle, the browser lands on the partner's redirect addresses, and the
// partner (a loopback server) receives each step's webhooks; the root page too.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { createPartnerClient, type PartnerClient } from '../../src/partner.js';
import { serveSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { launchChromium } from '../helpers/redoc-page.js';

let app: Server;
let appUrl: string;
const received: { eventType: string; data: { verificationId?: string; userId?: string; status?: string } }[] = [];
let sandbox: Sandbox;
let partner: PartnerClient;
let browser: Browser;
let page: Page;
/** Every URL the browser requested. */
const requested: string[] = [];

beforeAll(async () => {
  app = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/webhooks')
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>partner ${req.url}</title><p>partner app at ${req.url}</p>`);
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  sandbox = await serveSandbox({ port: 0, validateResponses: true, webhookUrl: `${appUrl}/webhooks` });
  partner = createPartnerClient({ baseUrl: sandbox.url, authKey: sandbox.authKey });
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('request', (r) => requested.push(r.url()));
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  await new Promise((resolve) => app?.close(resolve));
  expect(sandbox.violations).toEqual([]);
});

let phone = 4915100000000;
async function create(extra: Record<string, unknown> = {}) {
  const { data, error } = await partner.POST('/verifications', {
    body: {
      phoneNumbers: [{ phoneNumber: `+${phone++}`, isVerified: false }],
      externalUserId: crypto.randomUUID(),
      redirectUrl: `${appUrl}/done`,
      errorRedirectUrl: `${appUrl}/error`,
      requirements: [{ type: 'firstAndLastName' }, { type: 'dateOfBirth' }, { type: 'document' }],
      ...extra,
    },
  });
  expect(error).toBeUndefined();
  return data!;
}

async function statusOf(id: string) {
  const { data } = await partner.GET('/verifications/{verificationId}', { params: { path: { verificationId: id } } });
  return data!;
}

/** The webhooks about one verification, as `eventType status`, once `count` have arrived. */
async function webhooksOf(id: string, count: number): Promise<string[]> {
  await expect
    .poll(() => received.filter((e) => e.data.verificationId === id).length, { timeout: 10_000 })
    .toBeGreaterThanOrEqual(count);
  return received.filter((e) => e.data.verificationId === id).map((e) => `${e.eventType} ${e.data.status}`);
}

/** How many `eventType` webhooks about the user `userId` arrived. */
const userEvents = (eventType: string, userId: string) =>
  received.filter((e) => e.eventType === eventType && e.data.userId === userId).length;
const buttons = () => page.getByRole('button').allTextContents();
/** The webhooks of a verification whose page was opened, then of its last step. */
const openedThen = (status: string) => [
  'verification.created created',
  'verification.updated started',
  `verification.updated ${status}`,
];

/** Clicks `button` on the page and waits for the browser to land on `lands`. */
async function choose(button: string, lands = `${appUrl}/done`) {
  await page.getByRole('button', { name: button }).click();
  await page.waitForURL(lands);
}

/** A verification completed through its page: the verification and the user it made. */
async function completedOnPage() {
  const v = await create();
  await page.goto(v.url);
  await choose('Complete');
  return { v, userId: (await statusOf(v.id)).userId! };
}

describe("the end user's page", () => {
  it('opening the url starts the session; Complete enters the typed name and lands on redirectUrl (user.created)', async () => {
    const v = await create();
    await page.goto(v.url);
    expect(await page.locator('#status').textContent()).toBe('started');
    expect(await buttons()).toEqual(['Complete', 'Waiting for user input', 'Needs review', 'Decline']);
    expect((await statusOf(v.id)).status).toBe('started');
    expect(await webhooksOf(v.id, 2)).toEqual(openedThen('started').slice(0, 2));

    await page.getByLabel('First name').fill('Lena');
    await page.getByLabel('Last name').fill('Hoffmann');
    await choose('Complete');

    const done = await statusOf(v.id);
    expect(done.status).toBe('completed');
    expect(await webhooksOf(v.id, 3)).toEqual(openedThen('completed'));
    await expect.poll(() => userEvents('user.created', done.userId!)).toBe(1);
    const { data: user } = await partner.GET('/users/{userId}', { params: { path: { userId: done.userId! } } });
    expect([user!.firstName, user!.lastName, user!.dateOfBirth]).toEqual(['Lena', 'Hoffmann', '1990-01-01']);

    // The journey is over: the link hands the user back to the partner again.
    await page.goto(v.url);
    expect(page.url()).toBe(`${appUrl}/done`);
  });

  it('Waiting for user input stays on the page with Complete, Needs review and Decline; completing then merges into the user of the same phone (user.merged)', async () => {
    const { v: first, userId: firstUser } = await completedOnPage();

    const again = await create({ phoneNumbers: first.phoneNumbers, externalUserId: first.externalUserId });
    await page.goto(again.url);
    await choose('Waiting for user input', again.url);
    expect(await page.locator('#status').textContent()).toBe('waitingForUserInput');
    expect(await buttons()).toEqual(['Complete', 'Needs review', 'Decline', 'Phone number belongs to another user']);

    await choose('Complete');
    const done = await statusOf(again.id);
    expect([done.status, done.userId]).toEqual(['completed', firstUser]);
    expect(await webhooksOf(again.id, 4)).toEqual([
      ...openedThen('waitingForUserInput'),
      'verification.updated completed',
    ]);
    await expect.poll(() => userEvents('user.merged', firstUser)).toBe(1);
  });

  it('Phone number belongs to another user, offered while a user holds the number, declines and leaves that user alone', async () => {
    const { v: first, userId: holder } = await completedOnPage();

    const other = await create({ phoneNumbers: first.phoneNumbers });
    await page.goto(other.url);
    expect(await buttons()).toEqual([
      'Complete',
      'Waiting for user input',
      'Needs review',
      'Decline',
      'Phone number belongs to another user',
    ]);
    await choose('Phone number belongs to another user');
    const declined = await statusOf(other.id);
    expect([declined.status, declined.userId]).toEqual(['declined', null]);
    expect(await webhooksOf(other.id, 3)).toEqual(openedThen('declined'));
    const { data: user } = await partner.GET('/users/{userId}', { params: { path: { userId: holder } } });
    expect(user!.externalUsers.map((e) => e.id)).toEqual([first.externalUserId]);
    expect(userEvents('user.merged', holder)).toBe(0);
  });

  it('Needs review and Decline land on redirectUrl with inReview and declined; the form posted from another origin is refused', async () => {
    for (const [button, status] of [
      ['Needs review', 'inReview'],
      ['Decline', 'declined'],
    ] as const) {
      const v = await create({ requirements: [{ type: 'document' }] });
      await page.goto(v.url);
      expect(await buttons()).toEqual(['Complete', 'Needs review', 'Decline']);
      const foreign = await fetch(v.url, {
        method: 'POST',
        headers: { origin: 'https://attacker.example', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'outcome=decline',
      });
      expect([foreign.status, (await statusOf(v.id)).status]).toEqual([403, 'started']);
      await choose(button);
      expect((await statusOf(v.id)).status).toBe(status);
      expect(await webhooksOf(v.id, 3)).toEqual(openedThen(status));
    }
  });

  it("an expired session, another verification's token and a closed session go to the errorRedirectUrl of the verification the path names, or a plain error page without one", async () => {
    const expired = await create();
    const moved = await fetch(`${sandbox.url}/_sandbox/verifications/${expired.id}/expire`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(moved.status).toBe(200);
    await page.goto(expired.url);
    expect(page.url()).toBe(`${appUrl}/error`);

    // Another verification's token: never to that verification's address, and nothing changes.
    const mine = await create({ errorRedirectUrl: `${appUrl}/mine/error` });
    const other = await create({ errorRedirectUrl: 'https://other-partner.example/phish' });
    const otherToken = encodeURIComponent(new URL(other.url).searchParams.get('token')!);
    await page.goto(`${sandbox.url}/s/${mine.id}?token=${otherToken}`);
    expect(page.url()).toBe(`${appUrl}/mine/error`);
    const bare = await create({ errorRedirectUrl: undefined });
    const refused = await page.goto(`${sandbox.url}/s/${bare.id}?token=${otherToken}`);
    expect([refused!.status(), page.url()]).toEqual([410, `${sandbox.url}/s/${bare.id}?token=${otherToken}`]);
    expect([(await statusOf(mine.id)).status, (await statusOf(other.id)).status]).toEqual(['created', 'created']);

    const closed = await create({ errorRedirectUrl: undefined });
    await create({ phoneNumbers: closed.phoneNumbers });
    expect((await statusOf(closed.id)).status).toBe('closed');
    const answer = await page.goto(closed.url);
    expect(answer!.status()).toBe(410);
  });

  it('GET / links the documents, which load from the sandbox, and the package home', async () => {
    await page.goto(`${sandbox.url}/`);
    // One base URL for every client: createV2Client refuses one that ends in /v2.
    expect(await page.locator('body').textContent()).not.toContain(`${sandbox.url}/v2`);
    const { homepage } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(await page.getByRole('link', { name: homepage }).getAttribute('href')).toBe(homepage);
    await page.getByRole('link', { name: '/openapi/partner.json' }).click();
    // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, whose innerText is the text a reader sees
    const doc = JSON.parse(await page.locator('body').innerText());
    expect(doc.info.title).toMatch(/Partner/);
  });

  it('the pages load nothing from outside loopback', () => {
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.filter((u) => new URL(u).hostname !== '127.0.0.1')).toEqual([]);
  });
});
