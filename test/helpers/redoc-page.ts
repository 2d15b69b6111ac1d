// Chromium for the tests that need a browser, and the rendered docs (Redoc 3,
// as @redocly/cli build-docs renders them) opened in it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { serveStatic } from '../../scripts/lib/serve-static.mjs';
import { HANG_CEILING_MS } from './ceilings.js';
import { loadBundle, operationsOf } from './openapi.js';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Headless Chromium, Debian's unless CHROMIUM_PATH names another; launch() gives it a fresh, empty profile. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 20_000 });
export const SHOTS = path.join(ROOT, 'test-results', 'screenshots');
// How long a poll waits for the page (vitest's default is 1 s): in a full
// run the browser shares two cores with the other test files.
export const POLL_MS = 5_000;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A page and what it did that it must not: errors logged or thrown, failed loads, requests off loopback. */
export interface OpenedPage {
  page: Page;
  trouble: { errors: string[]; offLoopback: string[]; failedLoads: string[] };
}

export interface DocsBrowser {
  site: { url: string; close(): Promise<void> };
  browser: Browser;
  context: BrowserContext;
}

/**
 * The suite `name` with generated/docs served from 127.0.0.1 as a static
 * host serves it and one context of launchChromium, read through `docs()`. Without Chromium it does not pretend: one
 * test prints a banner naming what was `notChecked`, and fails when CI=true.
 */
export function describeInChromium(name: string, notChecked: string, tests: (docs: () => DocsBrowser) => void) {
  if (!existsSync(CHROMIUM)) {
    describe(name, () => {
      it('needs Chromium', () => {
        const message = [
          `Chromium was not found at ${CHROMIUM} (set CHROMIUM_PATH to use another binary).`,
          `NOT CHECKED: ${notChecked}.`,
          'Install it with: apt-get install chromium',
        ].join('\n');
        if (process.env.CI === 'true') throw new Error(`CI=true and ${name} cannot be checked.\n${message}`);
        console.warn(`\n${'!'.repeat(88)}\n${message}\n${'!'.repeat(88)}\n`);
        expect(existsSync(CHROMIUM)).toBe(false);
      });
    });
    return;
  }
  // A Redoc page costs seconds of browser CPU on a quiet machine, many times that under load.
  describe(name, { timeout: HANG_CEILING_MS }, () => {
    let opened: DocsBrowser;
    beforeAll(async () => {
      const site = await serveStatic(path.join(ROOT, 'generated', 'docs'));
      const browser = await launchChromium();
      opened = { site, browser, context: await browser.newContext({ viewport: { width: 1280, height: 1000 } }) };
    }, HANG_CEILING_MS);
    afterAll(async () => {
      await opened?.browser.close();
      await opened?.site.close();
    });
    tests(() => opened);
  });
}

/** A new page of `context` at `base/file` that records everything it must not do (one context serves every page: a context costs a second of browser CPU). */
export async function openPage(context: BrowserContext, base: string, file: string): Promise<OpenedPage> {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const trouble: OpenedPage['trouble'] = { errors: [], offLoopback: [], failedLoads: [] };
  // Every request passes here: loopback goes through, anything else is
  // recorded and refused (data: and blob: URLs stay inside the page).
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || LOOPBACK.has(url.hostname)) return route.continue();
    trouble.offLoopback.push(url.href);
    return route.abort('blockedbyclient');
  });
  page.on('console', (m) => {
    if (m.type() === 'error') trouble.errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => trouble.errors.push(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) trouble.failedLoads.push(`${r.status()} ${r.url()}`);
  });
  const res = await page.goto(`${base}/${file}`, { waitUntil: 'load', timeout: 15_000 });
  expect(res?.status(), file).toBe(200);
  expect(res?.headers()['content-type'], file).toMatch(/^text\/html/);
  onTestFailed(async () => {
    if (!page.isClosed())
      await page.screenshot({ path: path.join(SHOTS, `${file}.png`), fullPage: true }).catch(() => {});
  });
  return { page, trouble };
}

/** Nothing logged as an error, nothing failed to load, nothing left loopback. */
export async function expectClean({ page, trouble }: OpenedPage) {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
  expect(trouble.offLoopback, 'requests that left 127.0.0.1').toEqual([]);
  expect(trouble.errors, 'console errors and uncaught exceptions').toEqual([]);
  expect(trouble.failedLoads, 'loads that failed').toEqual([]);
}

/** Navigates to an operation or webhook by Redoc's address and waits for its section (Redoc renders a section when it is shown). */
export async function showOperation(page: Page, api: string, operationId: string) {
  const operation = operationsOf(loadBundle(api)).find((o) => o.operation.operationId === operationId)!.operation;
  // Redoc's own addresses: #/<tag slug>/<operationId in lower case>.
  const tag = String(operation.tags[0])
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  await page.evaluate((hash) => (location.hash = hash), `/${tag}/${operationId.toLowerCase()}`);
  const section = page.locator(`[id$="/${operationId.toLowerCase()}"]`).first();
  await section.waitFor();
  return section;
}
