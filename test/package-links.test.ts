// The Markdown as an npm user reads it: every relative link of every shipped
// page points at a file in the tarball (`npm pack --dry-run`), or it is dead
// for everyone who did not clone the repository; a page kept in the
// repository only is linked by its address (test/guides-links.test.ts).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';
import { isExternal, linksOf } from './helpers/markdown-links.js';

const exec = promisify(execFile);
let shipped = new Set<string>();

beforeAll(async () => {
  const { stdout } = await exec('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT });
  shipped = new Set((JSON.parse(stdout)[0].files as { path: string }[]).map((f) => f.path));
}, 60_000);

/** Follows the relative links from `starts` through every shipped Markdown page; returns the dead ones. */
function deadLinks(starts: string[], inPackage: Set<string>, read: (file: string) => string): string[] {
  const dead: string[] = [];
  const seen = new Set<string>();
  const queue = [...starts];
  while (queue.length) {
    const page = queue.shift()!;
    if (seen.has(page)) continue;
    seen.add(page);
    for (const href of linksOf(read(page))) {
      if (isExternal(href) || href.startsWith('#')) continue;
      const target = path.posix.normalize(
        path.posix.join(path.posix.dirname(page), decodeURIComponent(href.split('#')[0])),
      );
      if (!inPackage.has(target)) dead.push(`${page}: ${href}`);
      else if (target.endsWith('.md')) queue.push(target);
    }
  }
  return dead;
}

const fromRepo = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

const shippedPages = () => [...shipped].filter((file) => file.endsWith('.md'));

describe('the Markdown read from the installed package', () => {
  it('has no link to a file the tarball lacks, from any shipped page', () => {
    expect(shippedPages()).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'openapi/DECISIONS.md']));
    expect(deadLinks(shippedPages(), shipped, fromRepo)).toEqual([]);
  });

  it('reports a link to a file left out of the tarball, from a page the README does not lead to too (the checker itself)', () => {
    const pages: Record<string, string> = {
      'README.md': '[ok](guides/a.md) [gone](openapi/DECISIONS.md) [web](https://example.com) [here](#top)',
      'guides/a.md': '![shot](images/x.png) [back](../README.md#top) [missing](b.md)',
      'guides/c.md':
        '[kept in the repository](testing.md) [its address](https://github.com/o/r/blob/main/guides/testing.md)',
    };
    const files = new Set(['README.md', 'guides/a.md', 'guides/c.md']);
    expect(deadLinks(['README.md', 'guides/c.md'], files, (f) => pages[f])).toEqual([
      'README.md: openapi/DECISIONS.md',
      'guides/c.md: testing.md',
      'guides/a.md: images/x.png',
      'guides/a.md: b.md',
    ]);
  });
});
