// The reference's "Try it", answered by the package's sandbox running in the
// page: generated/docs served as static files from 127.0.0.1, Debian's
// Chromium driven by playwright-core. The sandbox script loads on the first
// press only; each page's operations answer as the contract says, the
// partner page's webhooks panel shows what a create emitted, signed with the
// form's key, and its end user's page opens in a new tab; every request goes
// to the docs' own files. Without Chromium the browser part says what it did
// not check (failing with CI=true); the byte budget needs no browser.
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { TRY_IT_SCRIPT } from '../../scripts/lib/try-it/build.mjs';
import { deref, loadBundle, operationsOf, pointer, validatorFor, type Json } from '../helpers/openapi.js';
import {
  expectClean,
  openPage,
  POLL_MS,
  samplesPanel,
  screenshotOnFailure,
  SHOTS,
  describeInChromium,
} from '../helpers/redoc-page.js';

const DOCS = path.join(ROOT, 'generated', 'docs');
/** The in-page sandbox, gzipped as a static host sends it (guides/sandbox.md states the figure): about 100 KB. */
const SANDBOX_GZIP_BUDGET = 112 * 1024;
/** What each API page carries from its first load for Try it: the button style and script. */
const PAGE_PARTS_BUDGET = 3 * 1024;

describe('what Try it adds to the reference, in bytes', () => {
  it(`the in-page sandbox (${TRY_IT_SCRIPT}) is at most ${SANDBOX_GZIP_BUDGET / 1024} KB gzipped, and each API page gains at most ${PAGE_PARTS_BUDGET} bytes`, () => {
    const bundle = readFileSync(path.join(DOCS, TRY_IT_SCRIPT));
    const gzipped = gzipSync(bundle).length;
    console.log(`try-it: ${TRY_IT_SCRIPT} ${bundle.length} bytes, ${gzipped} gzipped`);
    expect(gzipped).toBeLessThanOrEqual(SANDBOX_GZIP_BUDGET);
    for (const api of ['v2', 'partner', 'sandbox']) {
      const html = readFileSync(path.join(DOCS, `${api}.html`), 'utf8');
      const parts = /<style id="try-it-style">[\s\S]*?<script id="try-it-buttons">[\s\S]*?<\/script>/.exec(html);
      expect(parts, `${api}.html carries the Try it parts`).not.toBeNull();
      const bytes = Buffer.byteLength(parts![0]);
      console.log(`try-it: ${api}.html gains ${bytes} bytes`);
      expect(bytes, api).toBeLessThanOrEqual(PAGE_PARTS_BUDGET);
      // The page asks for the sandbox only through the button's script, by a path relative to itself.
      expect(html.split(TRY_IT_SCRIPT).length - 1, `${api}.html names ${TRY_IT_SCRIPT} once`).toBe(1);
    }
  });
});

/** The schema of an operation's answer with `status`, as a validator of the bundle. */
function answerValidator(api: string, route: string, method: string, status: number) {
  const doc = loadBundle(api);
  const response = doc.paths[route][method].responses[String(status)];
  const at = response.$ref
    ? `${response.$ref}/content/application~1json/schema`
    : pointer('paths', route, method, 'responses', String(status), 'content', 'application/json', 'schema');
  const validators = validatorFor(api);
  const validate = validators.at(at);
  return (value: unknown) => {
    expect(validate(value), `${method.toUpperCase()} ${route} ${status}: ${validators.errors(validate)}`).toBe(true);
  };
}

/** The first example of an operation's JSON body, as the form opens with it. */
function bodyExample(api: string, route: string, method: string): Json {
  const doc = loadBundle(api);
  const media = deref(doc, doc.paths[route][method].requestBody).content['application/json'];
  return media.example ?? deref(doc, Object.values<Json>(media.examples)[0]).value;
}

/** Presses an operation's Try it (navigating to it first) and waits for its form. */
async function pressTryIt(page: Page, api: string, operationId: string) {
  await samplesPanel(page, api, operationId);
  await page.locator(`.try-it-button[data-operation="${operationId}"]`).click();
  await page.locator(`#try-it-form[data-operation="${operationId}"]`).waitFor({ timeout: 60_000 });
}

/** Presses Send and reads the answer the panel shows: status, headers by name and body. */
async function send(page: Page) {
  await page.locator('#try-it-send').click();
  const status = page.locator('#try-it-status');
  await status.waitFor();
  await expect.poll(() => page.locator('#try-it-send').isEnabled(), { timeout: POLL_MS }).toBe(true);
  return {
    status: Number(await status.getAttribute('data-status')),
    headers: Object.fromEntries(
      await page
        .locator('#try-it-headers dt')
        .evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])),
    ),
    body: JSON.parse((await page.locator('#try-it-body').textContent()) ?? 'null'),
  };
}

describeInChromium(
  'Try it in a real browser',
  "the reference's Try it answered by the sandbox in the page (forms, answers against the contract, webhooks panel, the end user tab, no request off the docs)",
  (docs) => {
    let browser: Browser;
    let context: BrowserContext;
    let site: { url: string };
    /** Every request any tab of the context made, in order. */
    const requests: string[] = [];
    beforeAll(() => {
      ({ site, browser, context } = docs());
      context.on('request', (request) => requests.push(request.url()));
    });

    /** An API page, opened and walked operation by operation: each gets its Try it button as Redoc renders it. */
    async function openWithButtons(api: string) {
      const opened = await openPage(context, site.url, `${api}.html`);
      screenshotOnFailure(opened.page, `try-it-${api}`);
      for (const { operation } of operationsOf(loadBundle(api)).filter((o) => o.kind === 'path')) {
        await samplesPanel(opened.page, api, operation.operationId);
        await opened.page.locator(`.try-it-button[data-operation="${operation.operationId}"]`).waitFor();
      }
      return opened;
    }

    it('partner.html: Try it on every operation; POST /verifications then GET /verifications/{verificationId} answered by the sandbox in the page as the contract says, its webhooks and end user tab shared, a broken body refused with its reason', async () => {
      const opened = await openWithButtons('partner');
      const { page } = opened;
      const doc = loadBundle('partner');
      expect(
        requests.filter((url) => url.endsWith(TRY_IT_SCRIPT)),
        'the sandbox loaded before a press',
      ).toEqual([]);

      await pressTryIt(page, 'partner', 'createVerification');
      // The panel names the service's address as the document's Servers entry does.
      expect(await page.locator('#try-it-panel .try-it-note').textContent()).toContain(doc.servers[0].url);
      const example = bodyExample('partner', '/verifications', 'post');
      expect(JSON.parse(await page.locator('#try-it-form [name="body"]').inputValue())).toEqual(example);
      const authKey = await page.locator('#try-it-form [name="credential"]').inputValue();
      expect(authKey, 'the key filled in from the sandbox').toMatch(/\S{16,}/);

      const created = await send(page);
      expect(created.status).toBe(201);
      expect(created.headers['content-type']).toMatch(/^application\/json/);
      answerValidator('partner', '/verifications', 'post', 201)(created.body);
      expect(created.body).toMatchObject({ status: 'created', externalUserId: example.externalUserId });
      const id: string = created.body.id;

      // The webhook the create emitted, as it would be delivered: body byte for byte, signed with the form's key.
      const webhook = page.locator('#try-it-webhook-list li[data-event-type="verification.created"]', {
        hasText: id,
      });
      await webhook.locator('summary').click();
      const sentBody = (await webhook.locator('.try-it-webhook-body').textContent()) ?? '';
      expect(JSON.parse(sentBody)).toMatchObject({ eventType: 'verification.created', data: { verificationId: id } });
      validatorFor('partner').expectValid('WebhookEvent', JSON.parse(sentBody));
      expect(await webhook.locator('.try-it-signature').textContent()).toBe(
        createHmac('sha256', authKey).update(sentBody).digest('hex'),
      );

      // The end user's page in a new tab, served by the same sandbox: opening it starts the verification.
      const [tab] = await Promise.all([context.waitForEvent('page'), page.locator('#try-it-open-page').click()]);
      await expect.poll(() => tab.locator('#status').textContent(), { timeout: POLL_MS }).toBe('started');
      await page.bringToFront();

      await pressTryIt(page, 'partner', 'getVerification');
      expect(await page.locator('#try-it-form [name="path:verificationId"]').inputValue()).toBe(id);
      const read = await send(page);
      expect(read.status).toBe(200);
      answerValidator('partner', '/verifications/{verificationId}', 'get', 200)(read.body);
      expect(read.body).toMatchObject({ id, status: 'started' });
      await expect
        .poll(
          () =>
            page.locator('#try-it-webhook-list li[data-event-type="verification.updated"]', { hasText: id }).count(),
          { timeout: POLL_MS },
        )
        .toBe(1);

      // A list opens with an empty query, so it holds the verification just created; the operation's
      // example query is offered as a hint, and its filters, which name the reference's records, leave it out.
      await pressTryIt(page, 'partner', 'listVerifications');
      const query = page.locator('#try-it-form [name="query"]');
      expect(await query.inputValue()).toBe('');
      const all = await send(page);
      expect(all.status).toBe(200);
      answerValidator('partner', '/verifications', 'get', 200)(all.body);
      expect(all.body.verifications.map((v: Json) => v.id)).toContain(id);
      const exampleQuery = (await query.getAttribute('placeholder')) ?? '';
      expect(exampleQuery).toContain('status=inReview,completed');
      await query.fill(exampleQuery);
      const filtered = await send(page);
      expect(filtered.status).toBe(200);
      answerValidator('partner', '/verifications', 'get', 200)(filtered.body);
      expect(filtered.body.verifications.map((v: Json) => v.id)).not.toContain(id);

      // A body edited into a mistake: the sandbox's own 400, naming the field.
      await pressTryIt(page, 'partner', 'createVerification');
      await page.locator('#try-it-form [name="body"]').fill(JSON.stringify({ ...example, externalUserId: 42 }));
      const refused = await send(page);
      expect(refused.status).toBe(400);
      answerValidator('partner', '/verifications', 'post', 400)(refused.body);
      expect(refused.body.message).toContain('externalUserId');

      await expectClean(opened);
      await tab.close();
      await page.close();
    });

    it('v2.html: Try it on both operations; GET /v2/verifications/{id} answered with the bearer token filled in', async () => {
      const opened = await openWithButtons('v2');
      const { page } = opened;
      const doc = loadBundle('v2');
      await pressTryIt(page, 'v2', 'getVerification');
      expect(await page.locator('#try-it-panel .try-it-note').textContent()).toContain(doc.servers[0].url);
      expect(await page.locator('#try-it-form [name="credential"]').inputValue()).toMatch(/^Bearer \S+$/);
      const example = String(deref(doc, doc.paths['/v2/verifications/{id}'].get.parameters[0]).example);
      expect(await page.locator('#try-it-form [name="path:id"]').inputValue()).toBe(example);
      const read = await send(page);
      expect(read.status).toBe(200);
      answerValidator('v2', '/v2/verifications/{id}', 'get', 200)(read.body);
      expect(read.body.id).toBe(example);
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.screenshot({ path: path.join(SHOTS, 'try-it-v2.png') });
      await expectClean(opened);
      await page.close();
    });

    it('sandbox.html: Try it on every control operation; GET /_sandbox/clock answered', async () => {
      const opened = await openWithButtons('sandbox');
      const { page } = opened;
      await pressTryIt(page, 'sandbox', 'getClock');
      const clock = await send(page);
      expect(clock.status).toBe(200);
      answerValidator('sandbox', '/_sandbox/clock', 'get', 200)(clock.body);
      await expectClean(opened);
      await page.close();
    });

    it("every request of every tab went to the docs' own address, for a file that is there; the sandbox script loaded once per page", () => {
      expect(requests.length).toBeGreaterThan(2);
      const elsewhere = requests.filter(
        (url) => !url.startsWith('blob:') && !url.startsWith('data:') && new URL(url).origin !== site.url,
      );
      expect(elsewhere, 'requests to another address').toEqual([]);
      const missing = requests
        .filter((url) => new URL(url).origin === site.url)
        .map((url) => decodeURIComponent(new URL(url).pathname))
        .filter((file) => !existsSync(path.join(DOCS, file)) || !statSync(path.join(DOCS, file)).isFile());
      expect(missing, 'requests for files the docs do not have').toEqual([]);
      expect(requests.filter((url) => url.endsWith(TRY_IT_SCRIPT))).toHaveLength(3);
    });

    it('partner.html opened as a file on disk: Try it answers POST /verifications, loading only files beside it', async () => {
      // A context of its own, so the page's file:// requests stay out of the list the test above holds.
      const local = await browser.newContext();
      const page = await local.newPage();
      const loaded: string[] = [];
      const errors: string[] = [];
      page.on('request', (request) => loaded.push(request.url()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`file://${DOCS}/partner.html`, { waitUntil: 'load' });
      await pressTryIt(page, 'partner', 'createVerification');
      const created = await send(page);
      expect(created.status).toBe(201);
      answerValidator('partner', '/verifications', 'post', 201)(created.body);
      expect(loaded.filter((url) => !/^(file|blob|data):/.test(url))).toEqual([]);
      expect(loaded).toContain(`file://${DOCS}/${TRY_IT_SCRIPT}`);
      expect(errors).toEqual([]);
      await local.close();
    });
  },
);
