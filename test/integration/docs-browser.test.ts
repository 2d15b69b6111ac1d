// The rendered reference (generated/docs/) as a reader uses it, in Debian's
// Chromium, served from 127.0.0.1 as a static host would: the index's links
// open every page; every operation and webhook renders at its address, with
// its code samples whole in their panel; an "Assumed" marker lands on its
// entry; Try it is answered by the local sandbox running in the page (its
// webhooks panel, the end user's page in a new tab), on a served page and on
// a file opened from disk; no page logs an error, fails a load or asks
// anything of another address. The guides' screenshots go to guides/images/
// when missing or with UPDATE_SCREENSHOTS=1.
import { createHmac } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { APIS } from '../../scripts/lib/apis.mjs';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { TRY_IT_SCRIPT } from '../../scripts/lib/try-it/build.mjs';
import { deref, loadBundle, operationsOf, pointer, validatorFor, type Json } from '../helpers/openapi.js';
import {
  describeInChromium,
  expectClean,
  type OpenedPage,
  openPage,
  POLL_MS,
  SHOTS,
  showOperation,
} from '../helpers/redoc-page.js';

const DOCS = path.join(ROOT, 'generated', 'docs');
/** The in-page sandbox, gzipped as a static host sends it (guides/sandbox.md states the figure): about 100 KB. */
const SANDBOX_GZIP_BUDGET = 112 * 1024;
/** What each API page carries from its first load for Try it: the button style and script. */
const PAGE_PARTS_BUDGET = 3 * 1024;
const MENU_ITEM = '[data-component-name="Menu/MenuItem"]';
// The guides ship in the package, so their screenshots are JPEG: a third of a PNG's bytes, still legible.
const JPEG = { type: 'jpeg', quality: 70 } as const;
const GUIDE_VIEWPORT = { width: 1200, height: 760 };
/** The docs site's own pages beside the API pages, as the index links them. */
const SITE_PAGES = [
  { href: './changelog.html', heading: 'Changelog' },
  { href: './assumptions.html', heading: 'Assumptions in the API reference' },
  { href: './webhook-delivery.html', heading: 'Webhook delivery' },
];
const releases = [...readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8').matchAll(/^## (.+)$/gm)].map((m) =>
  m[1].trim(),
);
const PACKAGE_NAME: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).name;

describe('what Try it adds to the reference, in bytes', () => {
  it(`the in-page sandbox (${TRY_IT_SCRIPT}) is at most ${SANDBOX_GZIP_BUDGET / 1024} KB gzipped, and each API page gains at most ${PAGE_PARTS_BUDGET} bytes`, () => {
    const bundle = readFileSync(path.join(DOCS, TRY_IT_SCRIPT));
    const gzipped = gzipSync(bundle).length;
    console.log(`try-it: ${TRY_IT_SCRIPT} ${bundle.length} bytes, ${gzipped} gzipped`);
    expect(gzipped).toBeLessThanOrEqual(SANDBOX_GZIP_BUDGET);
    for (const api of APIS.map((a) => a.name)) {
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

/** Checks `value` against the schema of an operation's JSON answer with `status`. */
function expectAnswer(api: string, route: string, method: string, status: number, value: unknown) {
  const response = loadBundle(api).paths[route][method].responses[String(status)];
  const at = response.$ref
    ? `${response.$ref}/content/application~1json/schema`
    : pointer('paths', route, method, 'responses', String(status), 'content', 'application/json', 'schema');
  const validators = validatorFor(api);
  const validate = validators.at(at);
  expect(validate(value), `${method.toUpperCase()} ${route} ${status}: ${validators.errors(validate)}`).toBe(true);
}

/** Presses an operation's Try it (navigating to it first) and waits for its form. */
async function pressTryIt(page: Page, api: string, operationId: string) {
  await showOperation(page, api, operationId);
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
  'the reference in a real browser',
  'the rendered docs in generated/docs/ (index links, every operation and webhook shown with its samples, Try it answered by the sandbox in the page, no console errors, no request off loopback)',
  (docs) => {
    // One page per API, opened from the index and kept: a Redoc load costs seconds of browser CPU.
    const apiPages = new Map<string, OpenedPage>();
    /** Every request any tab of the context made, in order. */
    const requests: string[] = [];
    const open = (file: string) => openPage(docs().context, docs().site.url, file);
    /** The page of `api`, opened directly when the test that opens it from the index was filtered out. */
    async function apiPage(api: string) {
      if (!apiPages.has(api)) apiPages.set(api, await open(`${api}.html`));
      const opened = apiPages.get(api)!;
      // The tab in front: Chromium throttles the animation frames of a background tab.
      await opened.page.bringToFront();
      return opened;
    }
    beforeAll(() => {
      mkdirSync(SHOTS, { recursive: true });
      docs().context.on('request', (request) => requests.push(request.url()));
    });

    it('index.html gives the npx command and links every API page and site page, each link opening its page; the changelog lists the releases of CHANGELOG.md', async () => {
      const index = await open('index.html');
      const { page } = index;
      const links = await page.$$eval('a[href]', (as) =>
        as.map((a) => ({ href: a.getAttribute('href'), text: a.textContent?.trim() })),
      );
      expect(links.map((l) => l.href).sort()).toEqual(
        [...APIS.map((api) => `./${api.name}.html`), ...SITE_PAGES.map((p) => p.href)].sort(),
      );
      expect(await page.textContent('body')).toContain(`npx ${PACKAGE_NAME} sandbox`);
      await page.setViewportSize(GUIDE_VIEWPORT);
      await page.screenshot({ path: path.join(SHOTS, 'docs-index.jpg'), ...JPEG });
      for (const api of APIS) {
        expect(links.find((l) => l.href === `./${api.name}.html`)?.text, api.name).toBe(api.title);
        const opened = await open('index.html');
        const [res] = await Promise.all([
          opened.page.waitForNavigation({ waitUntil: 'load' }),
          opened.page.click(`a[href="./${api.name}.html"]`),
        ]);
        expect(res?.status(), api.name).toBe(200);
        await expect.poll(() => opened.page.title(), { timeout: POLL_MS }).toBe(api.title);
        await opened.page.waitForSelector(MENU_ITEM);
        apiPages.set(api.name, opened);
      }
      for (const site of SITE_PAGES) {
        const [res] = await Promise.all([
          page.waitForNavigation({ waitUntil: 'load' }),
          page.click(`a[href="${site.href}"]`),
        ]);
        expect(res?.status(), site.href).toBe(200);
        expect(await page.locator('h1').first().textContent()).toBe(site.heading);
        if (site.href === './changelog.html') {
          expect(releases.length).toBeGreaterThan(0);
          expect(await page.$$eval('h2', (hs) => hs.map((h) => h.textContent?.trim()))).toEqual(releases);
        }
        await page.goBack({ waitUntil: 'load' });
      }
      await expectClean(index);
      await page.close();
    });

    it.each(APIS.map((api) => api.name))(
      '%s.html shows every operation and webhook at its address, each operation with its code sample whole in its panel and a Try it button, and loads no sandbox before a press',
      async (api) => {
        const opened = await apiPage(api);
        const samples: { operationId: string; samples: { source: string }[] }[] = JSON.parse(
          readFileSync(path.join(ROOT, 'generated', 'samples', `${api}.json`), 'utf8'),
        );
        const operations = operationsOf(loadBundle(api));
        expect(operations.filter((o) => o.kind === 'path').map((o) => o.operation.operationId)).toEqual(
          expect.arrayContaining(samples.map((s) => s.operationId)),
        );
        for (const { kind, operation } of operations) {
          const section = await showOperation(opened.page, api, operation.operationId);
          if (kind === 'webhook') continue;
          const sources = samples.find((s) => s.operationId === operation.operationId)!.samples.map((s) => s.source);
          const code = section.locator('.panel-request-samples pre[data-testid="source-code"]').first();
          await expect
            .poll(async () => (await code.textContent())?.trimEnd(), {
              message: `${operation.operationId}: its sample`,
              timeout: POLL_MS,
            })
            .toBeOneOf(sources);
          // The docs' sample style (scripts/docs.mjs): lines wrap inside the panel, and none runs under the copy button.
          const layout = await code.evaluate((pre) => {
            const button = pre.parentElement?.querySelector('[data-testid="copy-button"]')?.getBoundingClientRect();
            const range = document.createRange();
            range.selectNodeContents(pre);
            const lines = [...range.getClientRects()].filter((r) => r.width > 0);
            const under = (r: DOMRect) =>
              !!button &&
              r.left < button.right &&
              r.right > button.left &&
              r.top < button.bottom &&
              r.bottom > button.top;
            return {
              lines: lines.length,
              cutOff: pre.scrollWidth - pre.clientWidth,
              underButton: lines.filter(under).length,
            };
          });
          expect(layout, operation.operationId).toEqual({ lines: expect.any(Number), cutOff: 0, underButton: 0 });
          expect(layout.lines, `${operation.operationId}: rendered lines`).toBeGreaterThan(0);
          await opened.page.locator(`.try-it-button[data-operation="${operation.operationId}"]`).waitFor();
        }
        expect(
          requests.filter((url) => url.endsWith(TRY_IT_SCRIPT)),
          'the sandbox loaded before a press',
        ).toEqual([]);
        await expectClean(opened);
      },
    );

    it('an "Assumed" marker of an operation opens its entry in assumptions.html', async () => {
      const opened = await open('partner.html');
      const { page } = opened;
      await showOperation(page, 'partner', 'createVerification');
      const marker = page.locator('[id$="/createverification"] a[href="assumptions.html#P1"]').first();
      expect(await marker.evaluate((a) => a.parentElement?.textContent ?? '')).toMatch(/Assumed \(P1\): /);
      const [res] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), marker.click()]);
      expect(res?.status()).toBe(200);
      expect(new URL(page.url()).pathname + new URL(page.url()).hash).toBe('/assumptions.html#P1');
      expect(await page.locator('section.assumption:target').getAttribute('id')).toBe('P1');
      await expectClean(opened);
      await page.close();
    });

    it('partner.html: POST /verifications then GET /verifications/{verificationId} answered by the sandbox in the page as the contract says, its webhooks signed with the form key, its end user page in a new tab, a list and its filters, a broken body refused with its reason', async () => {
      const opened = await apiPage('partner');
      const { page } = opened;
      const doc = loadBundle('partner');
      await pressTryIt(page, 'partner', 'createVerification');
      // The panel names the service's address as the document's Servers entry does.
      expect(await page.locator('#try-it-panel .try-it-note').textContent()).toContain(doc.servers[0].url);
      const media = deref(doc, doc.paths['/verifications'].post.requestBody).content['application/json'];
      const example = media.example ?? deref(doc, Object.values<Json>(media.examples)[0]).value;
      expect(JSON.parse(await page.locator('#try-it-form [name="body"]').inputValue())).toEqual(example);
      const authKey = await page.locator('#try-it-form [name="credential"]').inputValue();
      expect(authKey, 'the key filled in from the sandbox').toMatch(/\S{16,}/);

      const created = await send(page);
      expect(created.status).toBe(201);
      expect(created.headers['content-type']).toMatch(/^application\/json/);
      expectAnswer('partner', '/verifications', 'post', 201, created.body);
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
      const [tab] = await Promise.all([docs().context.waitForEvent('page'), page.locator('#try-it-open-page').click()]);
      await expect.poll(() => tab.locator('#status').textContent(), { timeout: POLL_MS }).toBe('started');
      await page.bringToFront();

      await pressTryIt(page, 'partner', 'getVerification');
      expect(await page.locator('#try-it-form [name="path:verificationId"]').inputValue()).toBe(id);
      const read = await send(page);
      expect(read.status).toBe(200);
      expectAnswer('partner', '/verifications/{verificationId}', 'get', 200, read.body);
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
      expectAnswer('partner', '/verifications', 'get', 200, all.body);
      expect(all.body.verifications.map((v: Json) => v.id)).toContain(id);
      const exampleQuery = (await query.getAttribute('placeholder')) ?? '';
      expect(exampleQuery).toContain('status=inReview,completed');
      await query.fill(exampleQuery);
      const filtered = await send(page);
      expect(filtered.status).toBe(200);
      expectAnswer('partner', '/verifications', 'get', 200, filtered.body);
      expect(filtered.body.verifications.map((v: Json) => v.id)).not.toContain(id);

      // A body edited into a mistake: the sandbox's own 400, naming the field.
      await pressTryIt(page, 'partner', 'createVerification');
      await page.locator('#try-it-form [name="body"]').fill(JSON.stringify({ ...example, externalUserId: 42 }));
      const refused = await send(page);
      expect(refused.status).toBe(400);
      expectAnswer('partner', '/verifications', 'post', 400, refused.body);
      expect(refused.body.message).toContain('externalUserId');

      await expectClean(opened);
      await tab.close();
    });

    it('v2.html: GET /v2/verifications/{id} answered with the bearer token and the example id filled in; sandbox.html: GET /_sandbox/clock answered', async () => {
      const v2 = await apiPage('v2');
      const doc = loadBundle('v2');
      await pressTryIt(v2.page, 'v2', 'getVerification');
      expect(await v2.page.locator('#try-it-panel .try-it-note').textContent()).toContain(doc.servers[0].url);
      expect(await v2.page.locator('#try-it-form [name="credential"]').inputValue()).toMatch(/^Bearer \S+$/);
      const example = String(deref(doc, doc.paths['/v2/verifications/{id}'].get.parameters[0]).example);
      expect(await v2.page.locator('#try-it-form [name="path:id"]').inputValue()).toBe(example);
      const read = await send(v2.page);
      expect(read.status).toBe(200);
      expectAnswer('v2', '/v2/verifications/{id}', 'get', 200, read.body);
      expect(read.body.id).toBe(example);
      await expectClean(v2);

      const control = await apiPage('sandbox');
      await pressTryIt(control.page, 'sandbox', 'getClock');
      const clock = await send(control.page);
      expect(clock.status).toBe(200);
      expectAnswer('sandbox', '/_sandbox/clock', 'get', 200, clock.body);
      await expectClean(control);
    });

    it("every request of every tab went to the docs' own address, for a file that is there; the sandbox script loaded once per page", () => {
      expect(requests.length).toBeGreaterThan(2);
      const { url } = docs().site;
      const elsewhere = requests.filter((r) => !/^(blob|data):/.test(r) && new URL(r).origin !== url);
      expect(elsewhere, 'requests to another address').toEqual([]);
      const missing = requests
        .filter((r) => new URL(r).origin === url)
        .map((r) => decodeURIComponent(new URL(r).pathname))
        .filter((file) => !existsSync(path.join(DOCS, file)) || !statSync(path.join(DOCS, file)).isFile());
      expect(missing, 'requests for files the docs do not have').toEqual([]);
      expect(requests.filter((r) => r.endsWith(TRY_IT_SCRIPT))).toHaveLength(3);
    });

    it('partner.html opened as a file on disk: Try it answers POST /verifications, loading only files beside it', async () => {
      // A context of its own, so the page's file:// requests stay out of the list the test above holds.
      const local = await docs().browser.newContext();
      const page = await local.newPage();
      const loaded: string[] = [];
      const errors: string[] = [];
      page.on('request', (request) => loaded.push(request.url()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`file://${DOCS}/partner.html`, { waitUntil: 'load' });
      await pressTryIt(page, 'partner', 'createVerification');
      const created = await send(page);
      expect(created.status).toBe(201);
      expectAnswer('partner', '/verifications', 'post', 201, created.body);
      expect(loaded.filter((url) => !/^(file|blob|data):/.test(url))).toEqual([]);
      expect(loaded).toContain(`file://${DOCS}/${TRY_IT_SCRIPT}`);
      expect(errors).toEqual([]);
      await local.close();
    });

    it('takes the screenshots the README and the guides show: the index, an operation with its TypeScript sample, the webhooks section', async () => {
      const opened = await open('partner.html');
      const { page } = opened;
      // Wide enough for Redoc's third column, where the samples sit beside the operation.
      await page.setViewportSize({ width: 1600, height: 900 });
      const section = await showOperation(page, 'partner', 'createVerification');
      // The panel's second menu lists the languages (the first is the server address).
      const menus = section.locator(
        '.panel-request-samples [data-component-name="Panel/PanelHeader"] > [data-testid="dropdown"]',
      );
      await menus.last().locator('button').first().click();
      await page
        .locator('[role="menuitem"]:visible')
        .filter({ has: page.locator('span[title="TypeScript"]') })
        .click();
      const code = section.locator('.panel-request-samples pre[data-testid="source-code"]').first();
      await expect.poll(() => code.textContent(), { timeout: POLL_MS }).toContain('createPartnerClient');
      await section.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      expect(await code.isVisible(), 'the samples are in view').toBe(true);
      await page.screenshot({ path: path.join(SHOTS, 'docs-operation.jpg'), ...JPEG });
      await page.setViewportSize(GUIDE_VIEWPORT);
      await page.evaluate(() => (location.hash = '/webhooks'));
      const receiving = page.getByRole('heading', { name: 'Receiving webhooks' });
      await receiving.waitFor();
      await receiving.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: path.join(SHOTS, 'docs-webhooks.jpg'), ...JPEG });
      await expectClean(opened);
      await page.close();
      for (const file of ['docs-index.jpg', 'docs-operation.jpg', 'docs-webhooks.jpg']) {
        const target = path.join(ROOT, 'guides', 'images', file);
        if (process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(target)) copyFileSync(path.join(SHOTS, file), target);
        expect(statSync(target).size, `guides/images/${file}`).toBeLessThan(300 * 1024);
      }
    });
  },
);
