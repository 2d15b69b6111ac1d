// Every link and image of README.md and guides/*.md outside code, relative
// or by the repository's address (how a shipped page reaches a page the
// tarball leaves out), lands on a file of this checkout, an #anchor on a
// heading of it (GitHub's heading ids). And the Markdown as an npm user
// reads it: every relative link of every shipped page points at a file in
// the tarball (`npm pack --dry-run`), or it is dead for everyone who did not
// clone the repository.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';
import { anchorsOf, isExternal, linksOf } from './helpers/markdown-links.js';

// The repository's address as package.json's `repository` gives it (assumed as the reference's is, K2, K5),
// so the links shipped pages carry and the link npm shows cannot disagree.
const { repository } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const REPOSITORY = `${repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}/`;
const REPOSITORY_FILES = `${REPOSITORY}blob/main/`;

/**
 * The repository file a link by the repository's address names, as a path
 * from the page; other links unchanged; undefined for an address of the
 * repository that names no file on its main branch.
 */
function inRepository(page: string, href: string): string | undefined {
  if (!href.startsWith(REPOSITORY)) return href;
  if (!href.startsWith(REPOSITORY_FILES)) return undefined;
  return path.posix.relative(path.posix.dirname(page), href.slice(REPOSITORY_FILES.length));
}

const guidesDir = path.join(ROOT, 'guides');
const PAGES = [
  'README.md',
  ...readdirSync(guidesDir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `guides/${f}`),
];

describe('links of the README and the guides', () => {
  it.each(PAGES)('%s: every relative link and link into the repository resolves, anchors included', (page) => {
    const markdown = readFileSync(path.join(ROOT, page), 'utf8');
    const broken: string[] = [];
    for (const link of linksOf(markdown)) {
      const href = inRepository(page, link);
      if (href === undefined) {
        broken.push(`${link}: link a file of the repository as ${REPOSITORY_FILES}<path>`);
        continue;
      }
      if (isExternal(href)) continue;
      const [target, anchor] = href.split('#') as [string, string | undefined];
      const file = target
        ? path.resolve(path.dirname(path.join(ROOT, page)), decodeURIComponent(target))
        : path.join(ROOT, page);
      if (!existsSync(file)) {
        broken.push(`${link}: no file ${path.relative(ROOT, file)}`);
        continue;
      }
      if (
        anchor &&
        !(statSync(file).isFile() && file.endsWith('.md') && anchorsOf(readFileSync(file, 'utf8')).has(anchor))
      ) {
        broken.push(`${link}: no heading #${anchor} in ${path.relative(ROOT, file)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('catches a broken file link and a broken anchor (the checker itself)', () => {
    expect(
      linksOf(
        '[a](guides/none.md) `[b](x.md)` ![c](images/x.png)\n\n```\n[d](y.md)\n```\n| t |\n|---|\n| [e](z.md#q) |',
      ),
    ).toEqual(['guides/none.md', 'images/x.png', 'z.md#q']);
    expect([...anchorsOf('# The `mock`\n## Run it, twice!\n## Run it, twice!')]).toEqual([
      'the-mock',
      'run-it-twice',
      'run-it-twice-1',
    ]);
  });

  it("reads a link by the repository's address as the file it names (the checker itself)", () => {
    expect(inRepository('README.md', `${REPOSITORY_FILES}guides/testing.md#end-to-end-tests`)).toBe(
      'guides/testing.md#end-to-end-tests',
    );
    expect(inRepository('guides/sandbox.md', `${REPOSITORY_FILES}guides/benchmarks.md`)).toBe('benchmarks.md');
    expect(inRepository('guides/sandbox.md', `${REPOSITORY}tree/main/guides`)).toBeUndefined();
    expect(inRepository('guides/sandbox.md', 'https://example.com/x.md')).toBe('https://example.com/x.md');
  });
});

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

const shippedPages = () => [...shipped].filter((file) => file.endsWith('.md'));

describe('the Markdown read from the installed package', () => {
  it('has no link to a file the tarball lacks, from any shipped page', () => {
    expect(shippedPages()).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'openapi/DECISIONS.md']));
    expect(deadLinks(shippedPages(), shipped, (file) => readFileSync(path.join(ROOT, file), 'utf8'))).toEqual([]);
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
