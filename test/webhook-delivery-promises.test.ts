// What is promised about webhook delivery is said once, in the Delivery
// section of the webhooks guide, and published from there as the docs'
// webhook-delivery.html, which the partner reference links. No other text of
// the package (README, guides, bundles, rendered docs) may state delivery
// order or single delivery as a guarantee: the service's documents promise
// neither, and a receiver written to such a sentence breaks in production.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAINTAINER_TALK, webhookDeliveryPage } from '../scripts/lib/doc-pages.mjs';
import { ROOT } from '../scripts/lib/paths.mjs';
import { documentTexts, markdownTables } from './helpers/document-texts.js';
import { loadBundle, type Json } from './helpers/openapi.js';

const DOCS = path.join(ROOT, 'generated', 'docs');
const guide = readFileSync(path.join(ROOT, 'guides', 'webhooks.md'), 'utf8');
const page = readFileSync(path.join(DOCS, 'webhook-delivery.html'), 'utf8');
const partner = loadBundle('partner');

/** The text of an HTML fragment as a reader sees it. */
const htmlText = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

describe('the webhook delivery page (webhook-delivery.html)', () => {
  it("shows the guide's table: the three column headings and every row, cell by cell", () => {
    const headings = [...page.matchAll(/<th>([\s\S]*?)<\/th>/g)].map((m) => htmlText(m[1]));
    expect(headings).toEqual([
      '',
      "The service's documents state",
      'Left open: a receiver must handle',
      'The local sandbox does',
    ]);
    const delivery = guide.slice(guide.indexOf('## Delivery: at least once, in any order'));
    const [table] = markdownTables(delivery);
    const rows = [...page.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
      .slice(1)
      .map((m) => [...m[1].matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => htmlText(c[1])));
    expect(rows.map((r) => r[0])).toEqual([
      'Retries',
      'The record',
      'Signature',
      'Order',
      'Repeats',
      'eventId on a retry',
      'Time to answer',
    ]);
    expect(rows, 'webhook-delivery.html is older than the table in guides/webhooks.md: run npm run build').toEqual(
      table.rows,
    );
  });

  it('links only pages of the docs, and each link lands: a named assumption on its entry', () => {
    const hrefs = [...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(
      expect.arrayContaining(['./index.html', './partner.html', 'assumptions.html#P53', 'assumptions.html#P23']),
    );
    for (const href of hrefs) {
      expect(href, 'a link off the docs site').not.toMatch(/^[a-z]+:|^\/\//);
      const [file, anchor] = href.split('#');
      expect(existsSync(path.join(DOCS, file)), href).toBe(true);
      if (anchor) expect(readFileSync(path.join(DOCS, file), 'utf8'), href).toContain(`id="${anchor}"`);
    }
  });

  it('speaks to partners: no repository file, no guide it cannot open', () => {
    expect(htmlText(page).match(MAINTAINER_TALK)?.[0]).toBeUndefined();
    expect(page).not.toMatch(/\.md\b/);
  });

  it('is built from the marked part only, its links into guides kept as text, and refused when the mark is missing or the text names a file', () => {
    const marked = (text: string) =>
      `# Guide\n\nBefore.\n\n<!-- published: webhook-delivery -->\n\n${text}\n\n<!-- /published -->\n\nAfter [the sandbox](sandbox.md).\n`;
    const built = webhookDeliveryPage(marked('Retries go on ([sandbox](sandbox.md#retries)); assumed, P23.'));
    expect(htmlText(built)).toContain('Retries go on (sandbox); assumed, P23.');
    expect(built).toContain('<a href="assumptions.html#P23">P23</a>');
    expect(built).not.toMatch(/Before\.|After /);
    expect(() => webhookDeliveryPage('# Guide\n\nNo mark here.\n')).toThrow(
      /no part marked <!-- published: webhook-delivery -->/,
    );
    expect(() => webhookDeliveryPage(marked('As openapi/DECISIONS.md says.'))).toThrow(/which partners cannot follow/);
  });
});

describe('the partner reference links the delivery page', () => {
  const link = /at\s+least\s+once[^[]*order\s+of\s+delivery[^[]*\[webhook\s+delivery\]\(webhook-delivery\.html\)/;

  it('from the Webhooks part of the description and from the Webhooks tag', () => {
    const description = partner.info.description as string;
    expect(description.slice(description.indexOf('## Webhooks'))).toMatch(link);
    expect(partner.tags.find((t: Json) => t.name === 'Webhooks').description).toMatch(link);
  });

  it('and the sandbox guide links the guide section', () => {
    expect(readFileSync(path.join(ROOT, 'guides', 'sandbox.md'), 'utf8')).toContain(
      '(webhooks.md#delivery-at-least-once-in-any-order)',
    );
  });
});

/**
 * Sentences that state delivery order or single delivery as a guarantee. They
 * leave alone what says the opposite ("Delivery order is not promised") and
 * the temporal "once" ("sent only once its change is on disk").
 */
const GUARANTEES = [
  /\bin order per\b/i,
  /\bexactly[- ]once\b/i,
  /\bat most once\b/i,
  /\b(?:delivered|sent|arrives?|received) (?:exactly |just |only )?once\b(?![- ](?:its|the|it|a|an|each|every|all|they|this|that|their)\b)/i,
  /\bnever (?:sent|delivered|arrives?|received) twice\b/i,
  /(?<!\b(?:not|never)(?: be)? )\b(?:delivered|sent|arrive|arrives|received) in (?:the (?:same )?|their |generation |creation )?order\b/i,
  /(?<!\b(?:no|not|never) )\b(?:guarantee[sd]?|promise[sd]?|ensures?) (?:the |their |a )?(?:delivery order|ordering|order of delivery|ordered delivery|single delivery|exactly-once delivery)\b/i,
];

/** The sentences of `text` (table cells and list items count as sentences) that state a guarantee. */
function guaranteesIn(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?;])\s+|\s\|\s/)
    .filter((sentence) => GUARANTEES.some((pattern) => pattern.test(sentence)));
}

/** Every text a reader of the package meets, by where it is. */
function packageTexts(): { at: string; text: string }[] {
  const texts: { at: string; text: string }[] = [];
  const guides = readdirSync(path.join(ROOT, 'guides')).filter((f) => f.endsWith('.md'));
  for (const file of ['README.md', ...guides.map((f) => `guides/${f}`)])
    texts.push({ at: file, text: readFileSync(path.join(ROOT, file), 'utf8') });
  for (const file of readdirSync(path.join(ROOT, 'generated', 'openapi')).filter((f) => f.endsWith('.json'))) {
    const doc = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'openapi', file), 'utf8'));
    for (const { at, text } of documentTexts(doc)) texts.push({ at: `generated/openapi/${file}${at}`, text });
  }
  for (const file of readdirSync(DOCS).filter((f) => f.endsWith('.html'))) {
    const html = readFileSync(path.join(DOCS, file), 'utf8');
    // A Redoc page is its script and the document it renders: the document's texts are what a reader sees.
    const definition = /const __redoc_definition = (\{.*\});?\n/.exec(html)?.[1];
    if (definition) {
      for (const { at, text } of documentTexts(JSON.parse(definition)))
        texts.push({ at: `generated/docs/${file}${at}`, text });
    } else texts.push({ at: `generated/docs/${file}`, text: htmlText(html) });
  }
  return texts;
}

describe('no text promises delivery order or single delivery', () => {
  it('the sentences looked for are guarantees, and what the table says is none', () => {
    const claims = [
      'Delivery: at least once, in order per verification and per user',
      'Each webhook is delivered exactly once.',
      'Webhooks are delivered in the order they are generated.',
      'The service guarantees delivery order per verification.',
      'An event is never delivered twice.',
      'Each event is sent once.',
      'Events of one verification arrive in order.',
      'Delivery is at most once.',
    ];
    for (const claim of claims) expect(guaranteesIn(claim), claim).toEqual([claim.replace(/\s+/g, ' ')]);
    const none = [
      'Delivery order is not promised: a retried `verification.created` may come after the `verification.updated` that followed it.',
      'Webhooks, in the order generated (delivery promises no order)',
      'Delivers at least once: a restart with `--state` re-sends a webhook whose answer was not yet recorded.',
      'A change is answered, and its webhooks sent, only once its line is fsynced.',
      'With `--state`, a webhook goes out only once the change it reports is on disk.',
      'The documents promise no delivery order, no single delivery.',
      'Webhooks are not delivered in order.',
      'A webhook may arrive more than once.',
    ];
    for (const sentence of none) expect(guaranteesIn(sentence), sentence).toEqual([]);
  });

  it('in the README, the guides, the three bundles and the rendered docs', () => {
    const texts = packageTexts();
    // Each source is read: its texts are named by file, then by place inside it.
    const sources = new Set(texts.map((t) => t.at.replace(/\.(md|json|html)\/.*$/, '.$1')));
    const expected = [
      'README.md',
      'guides/webhooks.md',
      'guides/sandbox.md',
      'v2.json',
      'partner.json',
      'sandbox.json',
    ].map((f) => (f.endsWith('.json') ? `generated/openapi/${f}` : f));
    for (const page of ['index.html', 'partner.html', 'assumptions.html', 'webhook-delivery.html'])
      expected.push(`generated/docs/${page}`);
    expect([...sources]).toEqual(expect.arrayContaining(expected));
    const found = texts.flatMap(({ at, text }) => guaranteesIn(text).map((sentence) => `${at}: "${sentence}"`));
    expect(
      found,
      'these state delivery order or single delivery as a guarantee, which the service does not make; say what the delivery table says',
    ).toEqual([]);
  });
});
