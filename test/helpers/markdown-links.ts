// Links of a Markdown page as a reader follows them: the relative links and
// images outside code, and the heading anchors a page offers (GitHub's ids).
// Shared by the repository link check and the packed-package link check.
import GithubSlugger from 'github-slugger';
import { marked, type Token, type Tokens } from 'marked';

function walk(tokens: Token[], visit: (token: Token) => void): void {
  for (const token of tokens) {
    visit(token);
    const nested = (token as { tokens?: Token[] }).tokens;
    if (nested) walk(nested, visit);
    if (token.type === 'list') walk((token as Tokens.List).items, visit);
    if (token.type === 'table') {
      const table = token as Tokens.Table;
      for (const cell of [...table.header, ...table.rows.flat()]) walk(cell.tokens, visit);
    }
  }
}

export function linksOf(markdown: string): string[] {
  const links: string[] = [];
  walk(marked.lexer(markdown), (token) => {
    if (token.type === 'link' || token.type === 'image') links.push((token as Tokens.Link).href);
    // Inline HTML: <a href> and <img src>.
    if (token.type === 'html') for (const m of token.raw.matchAll(/(?:href|src)="([^"]+)"/g)) links.push(m[1]);
  });
  return links;
}

export function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  walk(marked.lexer(markdown), (token) => {
    if (token.type === 'heading') anchors.add(slugger.slug((token as Tokens.Heading).text.replace(/`/g, '')));
  });
  return anchors;
}

export const isExternal = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//');
