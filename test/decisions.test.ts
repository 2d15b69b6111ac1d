// openapi/DECISIONS.md lists every assumption about the service made where
// the source documents are silent (the package's own tools keep theirs in
// guides/maintainers-decisions.md); the published descriptions mark a statement that rests on one with
// `Assumed ([P1](assumptions.html#P1)): …`, and the docs publish the list as
// generated/docs/assumptions.html. These tests keep the three in step, the
// published text free of repository files, every bound an answer carries in
// its row of the strictness table, and every link of the rendered docs landing
// on a page and entry that exists (webhook-delivery.html, built from the guide,
// too). How the rows and descriptions are worded is a review rule
// (guides/contributing.md).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APIS } from '../scripts/lib/apis.mjs';
import { ASSUMED_MARKER, MAINTAINER_TALK, decisionRows, webhookDeliveryPage } from '../scripts/lib/doc-pages.mjs';
import { ROOT } from '../scripts/lib/paths.mjs';
import { documentTexts, markdownTables } from './helpers/document-texts.js';
import { deref, loadBundle, operationsOf, type Json } from './helpers/openapi.js';
import { REQUEST_ONLY_SCHEMAS } from './helpers/partner-document.js';

const decisions = readFileSync(path.join(ROOT, 'openapi', 'DECISIONS.md'), 'utf8');
const maintainers = readFileSync(path.join(ROOT, 'guides', 'maintainers-decisions.md'), 'utf8');
const tableRows = (markdown: string) =>
  markdown
    .split('\n')
    .filter((line) => /^\| [A-Z]+\d+ \|/.test(line))
    // Cells may hold escaped pipes (`\|`) when they quote a source table.
    .map((line) =>
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
const rows = tableRows(decisions);
const toolRows = tableRows(maintainers);
const contractRows = decisionRows(decisions);
const rowIds = new Set(contractRows.map((r) => r.id));

/** The V and P rows DECISIONS.md lists, with a reason, as marked by no description. */
const unmarked = new Map(
  [...decisions.slice(decisions.indexOf('## Rows no description marks')).matchAll(/^- ([VP]\d+): (.+)$/gm)].map((m) => [
    m[1],
    m[2],
  ]),
);

const markedIds = (text: string) => [...text.matchAll(ASSUMED_MARKER)].map((m) => m[1]);
const bundles = APIS.map((api) => ({ api: api.name, doc: loadBundle(api.name) }));
const allMarked = new Set(bundles.flatMap(({ doc }) => documentTexts(doc).flatMap((t) => markedIds(t.text))));

describe('DECISIONS.md', () => {
  it.each([
    ['openapi/DECISIONS.md', rows],
    ['guides/maintainers-decisions.md', toolRows],
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

  it("holds the service assumptions (V, P) only; the tools' rows are in guides/maintainers-decisions.md", () => {
    expect(rows.map((r) => r[0]).filter((id) => !/^[VP]\d+$/.test(id))).toEqual([]);
    expect(toolRows.map((r) => r[0]).filter((id) => !/^[SCDWKT]\d+$/.test(id))).toEqual([]);
    for (const letter of ['S', 'C', 'D', 'W', 'K', 'T'])
      expect(
        toolRows.some((r) => r[0].startsWith(letter)),
        letter,
      ).toBe(true);
  });

  it('marks every V and P row in some description, or lists it with a reason as marked by none (not both)', () => {
    for (const id of rowIds) {
      const marked = allMarked.has(id);
      const listed = unmarked.has(id);
      expect(
        marked || listed,
        `${id}: neither marked in a description nor listed under "Rows no description marks"`,
      ).toBe(true);
      expect(marked && listed, `${id}: marked in a description but also listed as marked by none`).toBe(false);
    }
    for (const [id, reason] of unmarked) {
      expect(rowIds.has(id), `${id} is listed as unmarked but has no row`).toBe(true);
      expect(reason.length, `${id} reason`).toBeGreaterThan(20);
    }
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

  describe.each(APIS.map((api) => api.name))('%s', (api) => {
    const doc = loadBundle(api);

    it('gives every marked assumption its row', () => {
      for (const { at, text } of documentTexts(doc))
        for (const id of markedIds(text)) expect(rowIds.has(id), `${at} marks ${id}`).toBe(true);
    });

    it('names no repository file and never calls itself "the contract"', () => {
      for (const { at, text } of documentTexts(doc)) expect(text.match(MAINTAINER_TALK)?.[0], at).toBeUndefined();
    });
  });
});

describe('answer constraints are recorded in the strictness table', () => {
  const table = decisions.slice(
    decisions.indexOf('| Constraint in answers or webhooks |'),
    decisions.indexOf('## v2 read API'),
  );

  it('every numeric bound on a field of an answer or webhook is named, with its value, in a row of the table', () => {
    const bounds: { field: string; rule: string }[] = [];
    // Component schemas that an answer or a webhook uses; request-only schemas are strict by policy.
    const requestOnly = new Set(REQUEST_ONLY_SCHEMAS);
    const note = (field: string, s: Json) => {
      for (const key of ['minimum', 'maximum']) if (key in s) bounds.push({ field, rule: `${key}: ${s[key]}` });
    };
    for (const doc of [loadBundle('v2'), loadBundle('partner')]) {
      const visit = (node: Json) => {
        if (!node || typeof node !== 'object') return;
        for (const [key, value] of Object.entries(node)) {
          if (['examples', 'example', 'enum', 'const', 'default'].includes(key)) continue;
          if (key === 'properties') {
            for (const [prop, schema] of Object.entries(value as Json)) {
              note(prop, schema);
              visit(schema);
            }
          } else visit(value);
        }
      };
      for (const [name, schema] of Object.entries(doc.components.schemas)) {
        if (requestOnly.has(name)) continue;
        // A named schema such as `Count` is the field `count` wherever it is used.
        note(`${name[0].toLowerCase()}${name.slice(1)}`, schema);
        visit(schema);
      }
    }
    expect(bounds.length).toBeGreaterThan(0);
    const rows = table.split('\n').filter((line) => line.startsWith('| '));
    for (const { field, rule } of bounds) {
      const row = rows.find((r) => r.includes(`\`${field}\``) && r.includes(rule));
      expect(
        row,
        `\`${field}\` has \`${rule}\` in answers; record it in the strictness table of DECISIONS.md`,
      ).toBeDefined();
    }
  });
});

describe('the published assumptions page (generated/docs/assumptions.html)', () => {
  const html = readFileSync(path.join(ROOT, 'generated', 'docs', 'assumptions.html'), 'utf8');
  const text = html.replace(/<[^>]+>/g, ' ');

  it('has an entry for every marked row, so every marker link lands, and none for a row that assumes nothing', () => {
    for (const id of rowIds) {
      const entry = `<section class="assumption" id="${id}">`;
      if (unmarked.has(id)) expect(html, id).not.toContain(entry);
      else expect(html, id).toContain(entry);
    }
    for (const id of allMarked) expect(html, id).toContain(`id="${id}"`);
  });

  it('names no repository file', () => {
    expect(text.match(MAINTAINER_TALK)?.[0]).toBeUndefined();
  });

  it('names only rows it shows: a reader can look up every row a row refers to', () => {
    const shown = contractRows.filter((r) => !unmarked.has(r.id));
    for (const r of shown) {
      for (const [part, value] of [
        ['source', r.source],
        ['decision', r.decision],
        ['why', r.why],
      ] as const) {
        for (const id of [...value.matchAll(/\b[A-Z]\d+\b/g)].map((m) => m[0])) {
          if (/^[SCDWKT]\d+$/.test(id))
            expect.fail(`${r.id} ${part} names ${id}, a maintainers' row partners cannot see`);
          if (/^[VP]\d+$/.test(id))
            expect(
              shown.some((s) => s.id === id),
              `${r.id} ${part} names ${id}, which the page does not show`,
            ).toBe(true);
        }
      }
    }
  });

  it("leaves out S and C rows (the package's own tools)", () => {
    expect(html).not.toMatch(/id="[SC]\d+"/);
  });
});

describe('the rendered docs (generated/docs/*.html)', () => {
  const dir = path.join(ROOT, 'generated', 'docs');
  const pages = readdirSync(dir).filter((f) => f.endsWith('.html'));

  it.each(pages)('%s names no repository file and never says "the contract"', (page) => {
    // The Redoc pages hold Redoc's own script; these words cannot come from it.
    const html = readFileSync(path.join(dir, page), 'utf8');
    expect(
      html.match(
        /DECISIONS\.md|\b(?:this|the) contract\b|\bguides\/[\w-]+\.md|\bopenapi\/(?:v2|partner|sandbox|workflows)\/|npm run [a-z]/i,
      )?.[0],
    ).toBeUndefined();
  });

  it('every relative link of the bundles lands on a page of the docs, a named assumption on its entry', () => {
    const landed = new Map<string, string>();
    for (const { api, doc } of bundles)
      for (const { at, text } of documentTexts(doc))
        for (const [, href] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
          if (/^https?:/.test(href)) continue;
          const [file, anchor] = href.split('#');
          if (!landed.has(file)) {
            expect(existsSync(path.join(dir, file)), `${api}${at} links ${href}`).toBe(true);
            landed.set(file, readFileSync(path.join(dir, file), 'utf8'));
          }
          if (anchor) expect(landed.get(file), `${api}${at} links ${href}`).toContain(`id="${anchor}"`);
        }
    expect([...landed.keys()]).toEqual(expect.arrayContaining(['assumptions.html', 'webhook-delivery.html']));
  });
});

describe('the webhook delivery page (webhook-delivery.html)', () => {
  const dir = path.join(ROOT, 'generated', 'docs');
  const guide = readFileSync(path.join(ROOT, 'guides', 'webhooks.md'), 'utf8');
  const page = readFileSync(path.join(dir, 'webhook-delivery.html'), 'utf8');
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
    for (const href of hrefs) {
      expect(href, 'a link off the docs site').not.toMatch(/^[a-z]+:|^\/\//);
      const [file, anchor] = href.split('#');
      expect(existsSync(path.join(dir, file)), href).toBe(true);
      if (anchor) expect(readFileSync(path.join(dir, file), 'utf8'), href).toContain(`id="${anchor}"`);
    }
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
