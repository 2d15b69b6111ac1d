// The rendered docs (generated/docs/) in Debian's Chromium (playwright-core),
// served from 127.0.0.1 as a static host would: every page loads clean (no
// error logged, no failed load, no request off loopback); the index links and
// opens every page; Redoc lists and renders every operation and webhook, with
// its code samples whole in their panel, its Markdown tables cell by cell, its
// Servers box without Markdown marks, its deprecated fields marked and its
// "Assumed" markers landing on assumptions.html. A failing test leaves a
// screenshot in test-results/screenshots/; the guides' screenshots
// (GUIDE_SHOTS) go to guides/images/ when missing or with UPDATE_SCREENSHOTS=1.
// Without Chromium one test says what was not checked, and fails when CI=true.
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { APIS } from '../../scripts/lib/apis.mjs';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';
import { cellText, markdownTables } from '../helpers/document-texts.js';
import { deref, loadBundle, operationsOf, type Json } from '../helpers/openapi.js';
import {
  chooseLanguage,
  expectClean,
  expectSamples,
  MARKDOWN_TABLE,
  MENU_ITEM,
  openPage as openPageIn,
  POLL_MS,
  samplesPanel,
  screenshotOnFailure,
  SHOTS,
  VIEWPORT,
  type OpenedPage,
  type OperationSamples,
  describeInChromium,
} from '../helpers/redoc-page.js';

const GUIDE_IMAGES = path.join(ROOT, 'guides', 'images');
// The guides ship in the package, so their screenshots are JPEG: a third of a PNG's bytes, still legible.
const JPEG_QUALITY = 70;
const GUIDE_VIEWPORT = { width: 1200, height: 760 };
const GUIDE_SHOTS = [
  'docs-index.jpg',
  'docs-operation.jpg',
  'docs-webhooks.jpg',
  'docs-v2.jpg',
  'docs-sandbox.jpg',
  'docs-assumptions.jpg',
  'docs-changelog.jpg',
];
/** The docs site's own pages beside the API pages, as the index links them. */
const SITE_PAGES = [
  { href: './changelog.html', text: 'Changelog', heading: 'Changelog' },
  { href: './assumptions.html', text: 'Assumptions', heading: 'Assumptions in the API reference' },
  { href: './webhook-delivery.html', text: 'Webhook delivery', heading: 'Webhook delivery' },
];

const releases = [...readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8').matchAll(/^## (.+)$/gm)].map((m) =>
  m[1].trim(),
);
const PACKAGE_NAME: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).name;

describeInChromium(
  'docs in a real browser',
  'the rendered docs in generated/docs/ (index links, every operation and webhook shown, Markdown tables rendered, no console errors, no request off loopback)',
  (docs) => {
    // One page per API, opened once from the index's link: a Redoc load costs seconds of browser CPU.
    const apiPages = new Map<string, OpenedPage>();
    const openPage = (file: string) => openPageIn(docs().context, docs().site.url, file);
    beforeAll(() => {
      mkdirSync(SHOTS, { recursive: true });
    });

    it('index.html links every API page, the changelog (listing the releases of CHANGELOG.md), the assumptions and webhook delivery, each link opens it, and it gives the npx command', async () => {
      const { page, trouble } = await openPage('index.html');
      screenshotOnFailure(page, 'index');
      const links = await page.$$eval('a[href]', (as) =>
        as.map((a) => ({ href: a.getAttribute('href'), text: a.textContent?.trim() })),
      );
      expect(links.map((l) => l.href).sort()).toEqual(
        [...APIS.map((api) => `./${api.name}.html`), ...SITE_PAGES.map((p) => p.href)].sort(),
      );
      const body = (await page.textContent('body')) ?? '';
      expect(body).toContain(`npx ${PACKAGE_NAME} sandbox`);
      for (const api of APIS) {
        expect(links.find((l) => l.href === `./${api.name}.html`)?.text, api.name).toBe(api.title);
        const opened = await openPage('index.html');
        const [res] = await Promise.all([
          opened.page.waitForNavigation({ waitUntil: 'load' }),
          opened.page.click(`a[href="./${api.name}.html"]`),
        ]);
        expect(res?.status(), api.name).toBe(200);
        expect(new URL(opened.page.url()).pathname).toBe(`/${api.name}.html`);
        await expect.poll(() => opened.page.title(), { timeout: POLL_MS }).toBe(api.title);
        await opened.page.waitForSelector(MENU_ITEM);
        await opened.page.goBack({ waitUntil: 'load' });
        expect(new URL(opened.page.url()).pathname).toBe('/index.html');
        await opened.page.goForward({ waitUntil: 'load' });
        expect(new URL(opened.page.url()).pathname).toBe(`/${api.name}.html`);
        await opened.page.waitForSelector(MENU_ITEM);
        apiPages.set(api.name, opened);
      }
      for (const site of SITE_PAGES) {
        expect(links.find((l) => l.href === site.href)?.text, site.href).toBe(site.text);
        const [res] = await Promise.all([
          page.waitForNavigation({ waitUntil: 'load' }),
          page.click(`a[href="${site.href}"]`),
        ]);
        expect(res?.status(), site.href).toBe(200);
        expect(await page.locator('h1').first().textContent()).toBe(site.heading);
        // The changelog lists the releases of CHANGELOG.md.
        if (site.href === './changelog.html') {
          expect(releases.length).toBeGreaterThan(0);
          expect(await page.$$eval('h2', (hs) => hs.map((h) => h.textContent?.trim()))).toEqual(releases);
        }
        await page.goBack({ waitUntil: 'load' });
        expect(new URL(page.url()).pathname).toBe('/index.html');
      }
      await expectClean({ page, trouble });
      await page.close();
    });

    describe.each(APIS.map((api) => api.name))('%s.html', (name) => {
      const doc: Json = loadBundle(name);
      const operations = operationsOf(doc).map((entry) => ({
        ...entry,
        label: (entry.operation.summary ?? entry.operation.operationId ?? entry.key) as string,
      }));

      // Opened from the index by its first test; directly when that test is filtered out.
      beforeAll(async () => {
        if (!apiPages.has(name)) {
          const opened = await openPage(`${name}.html`);
          await opened.page.waitForSelector(MENU_ITEM);
          apiPages.set(name, opened);
        }
        // The tab in front: Chromium throttles the animation frames of a
        // background tab, and each click waits for two of them.
        await apiPages.get(name)!.page.bringToFront();
      }, HANG_CEILING_MS);
      const shared = () => apiPages.get(name)!;

      it('renders the tables of its info and tag descriptions, cell by cell', async () => {
        const { page, trouble } = shared();
        screenshotOnFailure(page, name);
        // Redoc rendered the descriptions at all, so 0 tables below means 0.
        const firstWords = cellText(String(doc.info.description ?? '').split('\n')[0])
          .split(' ')
          .slice(0, 6)
          .join(' ');
        if (firstWords) {
          await expect
            .poll(
              () =>
                page.$$eval('[data-component-name="Markdown/Markdown"]', (ms) =>
                  ms.map((m) => m.textContent?.replace(/\s+/g, ' ') ?? ''),
                ),
              { timeout: POLL_MS },
            )
            .toContainEqual(expect.stringContaining(firstWords));
        }
        const expected = [doc.info.description, ...(doc.tags ?? []).map((t: Json) => t.description)].flatMap((d) =>
          markdownTables(d),
        );
        const rendered = await page.$$eval(MARKDOWN_TABLE, (tables) =>
          tables.map((t) => {
            const text = (cell: Element) => (cell.textContent ?? '').replace(/\s+/g, ' ').trim();
            return {
              header: [...t.querySelectorAll('thead th')].map(text),
              rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map(text)),
            };
          }),
        );
        expect(rendered).toEqual(expected);
        // The page as a partner first sees it, for the guides (kept by the last test).
        await page.setViewportSize(GUIDE_VIEWPORT);
        await page.screenshot({ path: path.join(SHOTS, `docs-${name}.jpg`), quality: JPEG_QUALITY });
        await page.setViewportSize(VIEWPORT);
        await expectClean({ page, trouble });
      });

      const samples: OperationSamples[] = JSON.parse(
        readFileSync(path.join(ROOT, 'generated', 'samples', `${name}.json`), 'utf8'),
      );

      // One walk through the menu checks both (a second navigation per operation costs half a second).
      it(`lists every operation and webhook (${operations.length}) in the menu; each renders when chosen, with its code samples beside it (curl, and TypeScript where the package has a client)`, async () => {
        expect(operations.length).toBeGreaterThan(0);
        const { page, trouble } = shared();
        screenshotOnFailure(page, name);
        // Redoc keeps one tag group open at a time: open each in turn, then choose each of its operations.
        const headings = () =>
          page.$$eval('h1, h2', (hs) =>
            hs.filter((h) => (h as HTMLElement).offsetParent !== null).map((h) => h.textContent?.trim()),
          );
        const group = (href: string) =>
          page.locator(`${MENU_ITEM}.menu-item-type-group`).filter({ has: page.locator(`> a[href="${href}"]`) });
        const groupHrefs = await page.$$eval(`${MENU_ITEM}.menu-item-type-group > a`, (as) =>
          as.map((a) => a.getAttribute('href') ?? ''),
        );
        expect(groupHrefs.length, 'tag groups in the menu').toBeGreaterThan(0);
        const openGroups = () =>
          page.$$eval(
            `${MENU_ITEM}.menu-item-type-group`,
            (gs, item) =>
              gs
                .filter((g) => g.querySelector(item))
                .map((g) => ({
                  href: g.querySelector(':scope > a')?.getAttribute('href'),
                  chosen: g.querySelector('[data-testid="menu-item-label"][data-active="true"]') !== null,
                })),
            MENU_ITEM,
          );
        const menu: string[] = [];
        const sampled: string[] = [];
        for (const href of groupHrefs) {
          const g = group(href);
          expect(await g.count(), href).toBe(1);
          if ((await g.locator(MENU_ITEM).count()) === 0)
            await g.locator('[data-testid="menu-item-label"]').first().click();
          // The group opens at once, but Redoc closes the one open before
          // only when its router takes the new address (a React transition,
          // late when the CPU is busy), and that closing slides every item
          // below it up: a click meanwhile is pressed on one item and
          // released on another, which chooses nothing. So the walk goes on
          // once this group is the only one open and is chosen.
          await expect
            .poll(openGroups, { message: `${href}: the only group open, and chosen`, timeout: POLL_MS })
            .toEqual([{ href, chosen: true }]);
          const ops = g.locator(`${MENU_ITEM}.menu-item-type-operation`);
          await expect
            .poll(() => ops.count(), { message: `${href}: operations shown`, timeout: POLL_MS })
            .toBeGreaterThan(0);
          const items = await ops.evaluateAll((els) =>
            els.map((el) => ({
              label: el.querySelector('[data-text]')?.getAttribute('data-text') ?? '',
              href: el.querySelector('a')?.getAttribute('href') ?? '',
            })),
          );
          for (const [i, item] of items.entries()) {
            menu.push(item.label);
            await ops.nth(i).locator('[data-testid="menu-item-label"]').first().click();
            await expect
              .poll(() => new URL(page.url()).hash, { message: `${item.label}: address`, timeout: POLL_MS })
              .toBe(item.href);
            // (Redoc appends a "Webhook" badge to the heading of a webhook.)
            await expect
              .poll(
                async () => (await headings()).some((h) => h === item.label || h?.startsWith(`${item.label}Webhook`)),
                {
                  message: `${item.label}: rendered heading`,
                  timeout: POLL_MS,
                },
              )
              .toBe(true);
            const op = operations.find((o) => o.label === item.label);
            const tables = markdownTables(op?.operation.description).length;
            if (tables > 0)
              expect(await page.locator(MARKDOWN_TABLE).count(), `${item.label}: tables`).toBeGreaterThanOrEqual(
                tables,
              );
            const opSamples = samples.find((s) => s.operationId === op?.operation.operationId);
            if (opSamples) {
              await expectSamples(page, opSamples);
              sampled.push(opSamples.operationId);
            }
          }
        }
        expect([...menu].sort(), 'operations in the menu').toEqual(operations.map((o) => o.label).sort());
        const webhooks = operations.filter((o) => o.kind === 'webhook');
        for (const w of webhooks) expect(menu, `webhook ${w.key}`).toContain(w.label);
        expect(sampled.sort(), 'operations whose samples were checked').toEqual(
          samples.map((s) => s.operationId).sort(),
        );
        await expectClean({ page, trouble });
      });

      it('shows the address in the Servers box of a samples panel, without Markdown marks', async () => {
        const { page, trouble } = shared();
        screenshotOnFailure(page, name);
        const first = samples[0];
        const panel = await samplesPanel(page, name, first.operationId);
        const serverMenu = panel
          .locator('[data-component-name="Panel/PanelHeader"] > [data-testid="dropdown"]')
          .first();
        await serverMenu.locator('button').first().click();
        const item = serverMenu.locator('[role="menuitem"]').first();
        await item.waitFor();
        const shown = ((await item.textContent()) ?? '').replace(/\s+/g, ' ');
        const server = doc.servers[0];
        const base = String(server.url).replace(/\{(\w+)\}/g, (_: string, v: string) => server.variables[v].default);
        const route = operations.find((o) => o.operation.operationId === first.operationId)!.key;
        expect(shown).toContain(`${base}${route}`);
        expect(shown, 'the Servers box shows Markdown marks').not.toMatch(/[`*]|\]\(/);
        await page.keyboard.press('Escape');
        await expectClean({ page, trouble });
      });
    });

    it('marks the deprecated fields of a request as Redoc does, the name struck through beside a "deprecated" badge, and no other field', async () => {
      // On the partner page its tests used (opened here when they were filtered out).
      if (!apiPages.has('partner')) apiPages.set('partner', await openPage('partner.html'));
      const { page, trouble } = apiPages.get('partner')!;
      await page.bringToFront();
      screenshotOnFailure(page, 'partner-deprecated');
      const doc = loadBundle('partner');
      const body = deref(
        doc,
        deref(doc, doc.paths['/verifications'].post.requestBody).content['application/json'].schema,
      );
      const fields = Object.entries<Json>(body.properties).map(([field, schema]) => ({
        field,
        deprecated: deref(doc, schema).deprecated === true,
      }));
      expect(fields.filter((f) => f.deprecated).length, 'deprecated fields in the create request').toBeGreaterThan(0);
      await samplesPanel(page, 'partner', 'createVerification');
      const shown: { field: string; deprecated: boolean; struckOrBadge: boolean }[] = [];
      for (const { field } of fields) {
        const head = page
          .locator(
            `.schema-property-item[id$="/createverification/t=request&path=${field.toLowerCase()}"] > :first-child`,
          )
          .first();
        await head.waitFor();
        shown.push(
          await head.evaluate((el, name) => {
            const nameEl = el.querySelector('.schema-name');
            const struck = nameEl ? getComputedStyle(nameEl).textDecorationLine.includes('line-through') : false;
            const badge = [...el.querySelectorAll('span')].some(
              (s) => s.children.length === 0 && s.textContent?.trim() === 'deprecated',
            );
            return { field: name, deprecated: struck && badge, struckOrBadge: struck || badge };
          }, field),
        );
      }
      expect(shown).toEqual(fields.map((f) => ({ ...f, struckOrBadge: f.deprecated })));
      await expectClean({ page, trouble });
    });

    it('an "Assumed" marker of an operation opens its entry in assumptions.html', async () => {
      const { page, trouble } = apiPages.get('partner')!;
      await page.bringToFront();
      await samplesPanel(page, 'partner', 'createVerification');
      const marker = page.locator('[id$="/createverification"] a[href="assumptions.html#P1"]').first();
      expect(await marker.evaluate((a) => a.parentElement?.textContent ?? '')).toMatch(/Assumed \(P1\): /);
      const [res] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), marker.click()]);
      expect(res?.status()).toBe(200);
      expect(new URL(page.url()).pathname + new URL(page.url()).hash).toBe('/assumptions.html#P1');
      expect(await page.locator('section.assumption:target').getAttribute('id')).toBe('P1');
      await expectClean({ page, trouble });
      await page.close();
    });

    /** Keeps a screenshot for the guides when it is missing or UPDATE_SCREENSHOTS=1 asks for new ones. */
    function keepForGuides(file: string) {
      mkdirSync(GUIDE_IMAGES, { recursive: true });
      const target = path.join(GUIDE_IMAGES, file);
      if (process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(target)) copyFileSync(path.join(SHOTS, file), target);
      expect(statSync(target).size, `guides/images/${file}`).toBeLessThan(300 * 1024);
    }

    it('takes the screenshots the guides show: the index, an operation with its samples, the webhook section, and each other page', async () => {
      const viewport = GUIDE_VIEWPORT;
      const index = await openPage('index.html');
      await index.page.setViewportSize(viewport);
      await index.page.screenshot({ path: path.join(SHOTS, 'docs-index.jpg'), quality: JPEG_QUALITY });
      await index.page.close();

      // A fresh partner page (the v2 and sandbox pages were shot on load): the
      // one its tests walked has every section rendered, and its resizes cost more than a load.
      const { page, trouble } = await openPage('partner.html');
      // Wide enough for Redoc's third column, where the samples sit beside the operation.
      await page.setViewportSize({ width: 1600, height: 900 });
      await page.waitForSelector(MENU_ITEM);
      const panel = await samplesPanel(page, 'partner', 'createVerification');
      await chooseLanguage(panel, 'TypeScript');
      await expect
        .poll(() => panel.locator('pre[data-testid="source-code"]').first().textContent(), { timeout: POLL_MS })
        .toContain('createPartnerClient');
      await page
        .locator('[id$="/createverification"]')
        .first()
        .evaluate((el) => el.scrollIntoView({ block: 'start' }));
      expect(await panel.locator('pre[data-testid="source-code"]').first().isVisible(), 'the samples are in view').toBe(
        true,
      );
      await page.screenshot({ path: path.join(SHOTS, 'docs-operation.jpg'), quality: JPEG_QUALITY });
      await page.setViewportSize(viewport);

      await page.evaluate(() => (location.hash = '/webhooks'));
      const receiving = page.getByRole('heading', { name: 'Receiving webhooks' });
      await receiving.waitFor();
      await receiving.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      expect(await page.getByText('The raw-body pitfall.').isVisible()).toBe(true);
      await page.screenshot({ path: path.join(SHOTS, 'docs-webhooks.jpg'), quality: JPEG_QUALITY });
      await expectClean({ page, trouble });
      await page.close();

      for (const [file, shot] of [
        ['assumptions.html', 'docs-assumptions.jpg'],
        ['changelog.html', 'docs-changelog.jpg'],
      ]) {
        const opened = await openPage(file);
        await opened.page.setViewportSize(viewport);
        await opened.page.screenshot({ path: path.join(SHOTS, shot), quality: JPEG_QUALITY });
        await expectClean(opened);
        await opened.page.close();
      }

      for (const file of GUIDE_SHOTS) keepForGuides(file);
    });
  },
);
