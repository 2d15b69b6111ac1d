// openapi/DECISIONS.md, the descriptions that mark an assumption with `Assumed ([P1](…))`,
// and the published assumptions.html kept in step; the published text free of repository
// files, every bound an answer carries in the strictness table, every docs link landing.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APIS } from '../scripts/lib/apis.mjs';
import { ASSUMED_MARKER, MAINTAINER_TALK, decisionRows, webhookDeliveryPage } from '../scripts/lib/doc-pages.mjs';
import { ROOT } from '../scripts/lib/paths.mjs';
import { documentTexts, markdownTables } from './helpers/document-texts.js';
import { deref, loadBundle, operationsOf } from './helpers/openapi.js';
import { REQUEST_ONLY_SCHEMAS } from './helpers/partner-document.js';
import { walkSchemas } from './helpers/schema-walk.js';

const DOCS = path.join(ROOT, 'generated', 'docs');
const decisions = readFileSync(path.join(ROOT, 'openapi', 'DECISIONS.md'), 'utf8');
const maintainers = readFileSync(path.join(ROOT, 'guides', 'maintainers-decisions.md'), 'utf8');
/** The numbered rows of a decisions table: id, source line, decision, reason. */
const tableRows = (markdown: string) =>
  markdownTables(markdown)
    .flatMap((t) => t.rows)
    .filter((row) => /^[A-Z]+\d+$/.test(row[0]));
const contractRows = decisionRows(decisions);
const rowIds = new Set(contractRows.map((r) => r.id));

/** The V and P rows DECISIONS.md lists, with a reason, as marked by no description. */
const unmarkedList = decisions.slice(decisions.indexOf('## Rows no description marks'));
const unmarked = new Map([...unmarkedList.matchAll(/^- ([VP]\d+): (.+)$/gm)].map((m) => [m[1], m[2]]));

const markedIds = (text: string) => [...text.matchAll(ASSUMED_MARKER)].map((m) => m[1]);
const bundles = APIS.map((api) => ({ api: api.name, doc: loadBundle(api.name) }));
const allMarked = new Set(bundles.flatMap(({ doc }) => documentTexts(doc).flatMap((t) => markedIds(t.text))));

describe('DECISIONS.md', () => {
  it.each([
    ['openapi/DECISIONS.md', tableRows(decisions)],
    ['guides/maintainers-decisions.md', tableRows(maintainers)],
  ])('%s has numbered rows, each with a unique id, the source line it answers, a decision and a reason', (_, table) => {
    expect(table.length).toBeGreaterThan(5);
    const ids = table.map((r) => r[0]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [id, source, decision, why] of table) {
      expect(source.length, `${id} source`).toBeGreaterThan(10);
      expect(decision.length, `${id} decision`).toBeGreaterThan(10);
      expect(why.length, `${id} reason`).toBeGreaterThan(10);
    }
  });

  it('marks every V and P row in some description, or lists it with a reason as marked by none (not both)', () => {
    const ids = [...rowIds];
    const problems = {
      'neither marked nor listed as marked by none': ids.filter((id) => !allMarked.has(id) && !unmarked.has(id)),
      'both marked and listed as marked by none': ids.filter((id) => allMarked.has(id) && unmarked.has(id)),
      'listed as unmarked but without a row': [...unmarked.keys()].filter((id) => !rowIds.has(id)),
      'listed without a reason': [...unmarked].filter(([, reason]) => reason.length <= 20),
    };
    for (const [what, found] of Object.entries(problems)) expect(found, what).toEqual([]);
  });

  it('names each marked parameter in the row it links to', () => {
    const params = bundles.flatMap(({ doc }) =>
      operationsOf(doc)
        .flatMap((o) => o.operation.parameters ?? [])
        .map((p: object) => deref(doc, p) as { name: string; description?: string }),
    );
    const marked = params.filter((p) => markedIds(p.description ?? '').length > 0);
    expect(marked.length).toBeGreaterThan(5);
    for (const p of marked) {
      for (const id of markedIds(p.description!)) {
        const row = contractRows.find((r) => r.id === id)!;
        expect(`${row.source} ${row.decision}`, `${p.name} → ${id}`).toContain(`\`${p.name}\``);
      }
    }
  });

  it.each(bundles)(
    '$api gives every marked assumption its row, names no repository file, never says "the contract"',
    ({ doc }) => {
      for (const { at, text } of documentTexts(doc)) {
        for (const id of markedIds(text)) expect(rowIds.has(id), `${at} marks ${id}`).toBe(true);
        expect(text.match(MAINTAINER_TALK)?.[0], at).toBeUndefined();
      }
    },
  );
});

describe('answer constraints are recorded in the strictness table', () => {
  it('every numeric bound on a field of an answer or webhook is named, with its value, in a row of the table', () => {
    const bounds: { field: string; rule: string }[] = [];
    // Component schemas that an answer or a webhook uses; request-only schemas are strict by policy.
    for (const api of ['v2', 'partner'])
      walkSchemas(loadBundle(api), (schema, at) => {
        const [, , , name, ...inside] = at.split('/');
        if (!at.startsWith('#/components/schemas/') || REQUEST_ONLY_SCHEMAS.includes(name)) return;
        // A named schema such as `Count` is the field `count` wherever it is used.
        const field = inside.length
          ? inside.at(-2) === 'properties' && inside.at(-1)
          : name[0].toLowerCase() + name.slice(1);
        for (const key of ['minimum', 'maximum'])
          if (field && typeof schema === 'object' && key in schema)
            bounds.push({ field, rule: `${key}: ${schema[key]}` });
      });
    expect(bounds.length).toBeGreaterThan(0);
    const table = decisions.slice(decisions.indexOf('| Constraint in answers'), decisions.indexOf('## v2 read API'));
    const rows = table.split('\n').filter((line) => line.startsWith('| '));
    const unrecorded = bounds.filter(
      ({ field, rule }) => !rows.some((r) => r.includes(`\`${field}\``) && r.includes(rule)),
    );
    expect(
      unrecorded.map(({ field, rule }) => `\`${field}\` has \`${rule}\` in answers`),
      'record each in the strictness table of DECISIONS.md',
    ).toEqual([]);
  });
});

describe('the published assumptions page (generated/docs/assumptions.html)', () => {
  const html = readFileSync(path.join(DOCS, 'assumptions.html'), 'utf8');
  const text = html.replace(/<[^>]+>/g, ' ');

  it('has an entry for every marked row, so every marker link lands, and none for a row that assumes nothing', () => {
    for (const id of rowIds) {
      const entry = `<section class="assumption" id="${id}">`;
      if (unmarked.has(id)) expect(html, id).not.toContain(entry);
      else expect(html, id).toContain(entry);
    }
    for (const id of allMarked) expect(html, id).toContain(`id="${id}"`);
    // The package's own tools (S and C rows) are not the service's.
    expect(html).not.toMatch(/id="[SC]\d+"/);
  });

  it('names no repository file', () => {
    expect(text.match(MAINTAINER_TALK)?.[0]).toBeUndefined();
  });

  it('names only rows it shows: a reader can look up every row a row refers to', () => {
    const shown = new Set([...rowIds].filter((id) => !unmarked.has(id)));
    for (const r of contractRows.filter((r) => shown.has(r.id)))
      for (const id of `${r.source} ${r.decision} ${r.why}`.match(/\b[A-Z]\d+\b/g) ?? []) {
        expect(/^[SCDWKT]\d+$/.test(id), `${r.id} names ${id}, a maintainers' row partners cannot see`).toBe(false);
        if (/^[VP]\d+$/.test(id)) expect(shown.has(id), `${r.id} names ${id}, which the page does not show`).toBe(true);
      }
  });
});

/** Where a relative link of the docs fails to land: its page missing, or no entry of its anchor on it. */
function missedLanding(href: string): string | undefined {
  const [file, anchor] = href.split('#');
  if (!existsSync(path.join(DOCS, file))) return `${href}: no such page`;
  if (anchor && !readFileSync(path.join(DOCS, file), 'utf8').includes(`id="${anchor}"`)) return `${href}: no entry`;
}

describe('the rendered docs (generated/docs/*.html)', () => {
  const pages = readdirSync(DOCS).filter((f) => f.endsWith('.html'));

  it.each(pages)('%s names no repository file and never says "the contract"', (page) => {
    // The Redoc pages hold Redoc's own script; these words cannot come from it.
    const html = readFileSync(path.join(DOCS, page), 'utf8');
    expect(
      html.match(
        /DECISIONS\.md|\b(?:this|the) contract\b|\bguides\/[\w-]+\.md|\bopenapi\/(?:v2|partner|sandbox|workflows)\/|npm run [a-z]/i,
      )?.[0],
    ).toBeUndefined();
  });

  it('every relative link of the bundles lands on a page of the docs, a named assumption on its entry', () => {
    const links = bundles.flatMap(({ api, doc }) =>
      documentTexts(doc).flatMap(({ at, text }) =>
        [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ where: `${api}${at}`, href: m[1] })),
      ),
    );
    const relative = links.filter((l) => !/^https?:/.test(l.href));
    expect(
      relative.map((l) => missedLanding(l.href) && `${l.where} links ${missedLanding(l.href)}`).filter(Boolean),
    ).toEqual([]);
    expect(relative.map((l) => l.href.split('#')[0])).toEqual(
      expect.arrayContaining(['assumptions.html', 'webhook-delivery.html']),
    );
  });
});

describe('the webhook delivery page (webhook-delivery.html)', () => {
  const guide = readFileSync(path.join(ROOT, 'guides', 'webhooks.md'), 'utf8');
  const page = readFileSync(path.join(DOCS, 'webhook-delivery.html'), 'utf8');
  const ENTITIES: Record<string, string> = { '#39': "'", quot: '"', lt: '<', gt: '>', amp: '&' };
  /** The text of an HTML fragment as a reader sees it. */
  const htmlText = (html: string) =>
    html
      .replace(/<[^>]+>/g, '')
      .replace(/&(#39|quot|lt|gt|amp);/g, (_, entity) => ENTITIES[entity])
      .replace(/\s+/g, ' ')
      .trim();

  it("shows the guide's delivery table: its column headings and every row, cell by cell", () => {
    const [table] = markdownTables(guide.slice(guide.indexOf('<!-- published: webhook-delivery')));
    const headings = [...page.matchAll(/<th>([\s\S]*?)<\/th>/g)].map((m) => htmlText(m[1]));
    const rows = [...page.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
      .slice(1)
      .map((m) => [...m[1].matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => htmlText(c[1])));
    expect(table.rows.length).toBeGreaterThan(0);
    const stale = 'webhook-delivery.html is older than the table in guides/webhooks.md: run npm run build';
    expect(headings, stale).toEqual(table.header);
    expect(rows, stale).toEqual(table.rows);
  });

  it('links only pages of the docs, and each link lands: a named assumption on its entry', () => {
    const hrefs = [...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(
      expect.arrayContaining(['./index.html', './partner.html', 'assumptions.html#P53', 'assumptions.html#P23']),
    );
    expect(
      hrefs.filter((href) => /^[a-z]+:|^\/\//.test(href)),
      'links off the docs site',
    ).toEqual([]);
    expect(hrefs.map(missedLanding).filter(Boolean)).toEqual([]);
  });

  it('is built from the marked part only, its links into guides kept as text, and refused when the mark is missing or the text names a file', () => {
    const marked = (text: string) =>
      `# Guide\n\nBefore.\n\n<!-- published: webhook-delivery -->\n\n${text}\n\n<!-- /published -->\n\nAfter [the sandbox](sandbox.md).\n`;
    const built = webhookDeliveryPage(marked('Retries go on ([sandbox](sandbox.md#retries)); assumed, P23.'));
    expect(htmlText(built)).toContain('Retries go on (sandbox); assumed, P23.');
    expect(built).toContain('<a href="assumptions.html#P23">P23</a>');
    expect(built).not.toMatch(/Before\.|After /);
    expect(() => webhookDeliveryPage('# Guide\n\nNo mark here.\n')).toThrow();
    expect(() => webhookDeliveryPage(marked('As openapi/DECISIONS.md says.'))).toThrow();
  });
});
