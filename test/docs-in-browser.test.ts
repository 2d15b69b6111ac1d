// The rendered docs in a real browser (Debian's Chromium driven by
// playwright-core), served from 127.0.0.1: every operation and webhook of
// each bundled document appears, the Markdown tables of the descriptions
// (the partner lifecycle among them) render as tables, nothing is logged as
// an error, and no request leaves loopback. Screenshots go to
// test-results/screenshots/ (git-ignored).
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIS } from '../scripts/lib/apis.mjs';
import { ROOT } from '../scripts/lib/paths.mjs';
import { serveStatic } from '../scripts/lib/serve-static.mjs';
import { loadBundle, operationsOf } from './helpers/openapi.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
const SHOTS = path.join(ROOT, 'test-results', 'screenshots');

/** Header rows of the Markdown tables in a description. */
function markdownTables(markdown: string | undefined): string[][] {
  const lines = (markdown ?? '').split('\n').map((l) => l.trim());
  const tables: string[][] = [];
  lines.forEach((line, i) => {
    if (line.startsWith('|') && /^\|\s*:?-{3,}/.test(lines[i + 1] ?? '')) {
      tables.push(line.split('|').slice(1, -1).map((c) => c.trim().replace(/`/g, '')));
    }
  });
  return tables;
}

if (!present) {
  describe('docs in a real browser', () => {
    it('needs Chromium', () => {
      const message = `Chromium was not found at ${CHROMIUM}: the docs were NOT checked in a browser. Install it with \`apt-get install chromium\` (or set CHROMIUM_PATH).`;
      console.warn(`\n${'!'.repeat(80)}\n${message}\n${'!'.repeat(80)}\n`);
      // CI must not pass without the check; locally the warning above says what was skipped.
      expect(process.env.CI === 'true' ? message : 'not in CI').toBe('not in CI');
    });
  });
} else {
  describe('docs in a real browser', () => {
    let browser: Browser;
    let context: BrowserContext;
    let site: { url: string; close(): Promise<void> };
    const offLoopback: string[] = [];
    const errors: string[] = [];

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      site = await serveStatic(path.join(ROOT, 'generated', 'docs'));
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
      context = await browser.newContext({ viewport: { width: 1280, height: 1600 } });
      // Every request is seen here: loopback goes through, anything else is recorded and refused.
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (['data:', 'blob:'].includes(url.protocol) || ['127.0.0.1', 'localhost'].includes(url.hostname)) return route.continue();
        offLoopback.push(url.href);
        return route.abort();
      });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await site?.close();
    });

    async function open(page: string) {
      const tab = await context.newPage();
      tab.on('console', (m) => m.type() === 'error' && errors.push(`${page}: ${m.text()}`));
      tab.on('pageerror', (e) => errors.push(`${page}: ${e.message}`));
      const res = await tab.goto(`${site.url}/${page}`, { waitUntil: 'load' });
      expect(res?.status()).toBe(200);
      return tab;
    }

    it('index.html links every API page, and the links work', async () => {
      const tab = await open('index.html');
      const links = await tab.$$eval('a', (as) => as.map((a) => ({ text: a.textContent?.trim(), href: a.getAttribute('href') })));
      expect(links.map((l) => l.href)).toEqual(APIS.map((api) => `./${api.name}.html`));
      for (const api of APIS) expect(links.map((l) => l.text)).toContain(api.title);
      await tab.screenshot({ path: path.join(SHOTS, 'index.png'), fullPage: true });
      await tab.click(`a[href="./${APIS[0].name}.html"]`);
      await tab.waitForURL(`**/${APIS[0].name}.html`);
      await tab.close();
    });

    it.each(APIS.map((api) => api.name))('%s.html shows every operation and webhook and renders its tables', async (api) => {
      const doc = loadBundle(api);
      const tab = await open(`${api}.html`);
      // Redoc lists operations in the side menu, grouped by tag, and renders
      // one at a time: open every group and collect what the menu shows.
      const LABEL = '[data-testid="menu-item-label"]';
      const GROUP = `${LABEL}:has([data-component-name^="icons/Chevron"])`;
      const shown = new Set<string>();
      const groups = (await tab.$$(GROUP)).length;
      expect(groups).toBeGreaterThan(0);
      for (let i = 0; i < groups; i++) {
        await (await tab.$$(GROUP))[i].click();
        await tab.waitForTimeout(100);
        for (const label of await tab.$$eval(LABEL, (ls) => ls.map((l) => (l as HTMLElement).innerText.trim().split('\n')[0]))) shown.add(label);
      }
      const operations = operationsOf(doc);
      for (const { operation, key, kind } of operations) {
        expect([...shown], `${kind} ${key}`).toContain(operation.summary ?? operation.operationId);
      }
      // An operation chosen in the menu (one of the group left open) renders as a section.
      let chosen: string | undefined;
      for (const { operation } of operations) {
        if (await tab.locator(LABEL, { hasText: operation.summary }).first().isVisible()) {
          chosen = operation.summary;
          break;
        }
      }
      expect(chosen).toBeDefined();
      await tab.locator(LABEL, { hasText: chosen }).first().click();
      await expect
        .poll(() => tab.$$eval('h1, h2', (hs) => hs.map((h) => h.textContent?.trim())))
        .toContain(chosen);
      // Redoc renders Markdown tables as <table>; each table of the API's
      // description must be there with its header cells.
      await tab.goto(`${site.url}/${api}.html`, { waitUntil: 'load' });
      const headers = await tab.$$eval('table', (ts) => ts.map((t) => [...t.querySelectorAll('th')].map((th) => th.textContent?.trim() ?? '')));
      for (const header of markdownTables(doc.info.description)) {
        expect(headers, header.join(' | ')).toContainEqual(header);
      }
      await tab.screenshot({ path: path.join(SHOTS, `${api}.png`) });
      await tab.close();
    });

    it('renders the partner lifecycle: the state table and the three event sequences', async () => {
      const tab = await open('partner.html');
      const rows = await tab.$$eval('table tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
      for (const status of ['waitingForUserInput', 'inReview', 'completed', 'declined', 'closed', 'expired', 'reverted']) {
        expect(rows.some((r) => r.includes(status)), status).toBe(true);
      }
      for (const scenario of ['New user', 'Merge', 'Manual review']) {
        expect(rows.some((r) => r.startsWith(scenario) && r.includes('verification.created')), scenario).toBe(true);
      }
      await tab.close();
    });

    it('logged no console errors and made no request off loopback', () => {
      expect(offLoopback).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
}
