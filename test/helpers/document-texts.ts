// The words of the documents as readers meet them: every human-readable text
// of a bundle with its location, and the Markdown tables of a description as
// a browser renders them (for comparing with Redoc's <table>s).
import type { Json } from './openapi.js';

/** Every human-readable text of a document (description, summary, title) with its location. */
export function documentTexts(doc: Json): { at: string; text: string }[] {
  const out: { at: string; text: string }[] = [];
  // An array's entries are walked by index, which no text key is.
  const walk = (node: Json, at: string) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (['description', 'summary', 'title'].includes(key) && typeof value === 'string')
        out.push({ at: `${at}/${key}`, text: value });
      else walk(value, `${at}/${key}`);
    }
  };
  walk(doc, '');
  return out;
}

export interface MarkdownTable {
  header: string[];
  rows: string[][];
}

/** The text a Markdown cell renders to: no backticks, emphasis or link targets. */
const cellText = (cell: string) =>
  cell
    .replace(/\\\|/g, '|')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`|\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The Markdown tables of a description: a `|` line followed by a `|---` line,
 * then its rows; each cell as `cell` gives it (by default the rendered text,
 * `(c) => c.trim()` for the cell as written, backticks kept).
 */
export function markdownTables(markdown: string | undefined, cell = cellText): MarkdownTable[] {
  const splitRow = (line: string) =>
    line
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split(/(?<!\\)\|/)
      .map(cell);
  const lines = (markdown ?? '').split('\n').map((l) => l.trim());
  const tables: MarkdownTable[] = [];
  for (let i = 0; i < lines.length - 1; i++) {
    if (!lines[i].startsWith('|') || !/^\|\s*:?-{3,}/.test(lines[i + 1])) continue;
    const table: MarkdownTable = { header: splitRow(lines[i]), rows: [] };
    let j = i + 2;
    for (; j < lines.length && lines[j].startsWith('|'); j++) table.rows.push(splitRow(lines[j]));
    tables.push(table);
    i = j - 1;
  }
  return tables;
}
