// The pages the package ships (the README and the guides package.json's
// "files" names) speak of two sandboxes: the service's sandbox environment,
// where the partner document's `{sandbox_base_url}` points, and the local
// sandbox in this package. In each section the first "sandbox" says which,
// so a partner never reads the local one as the service's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const SHIPPED = ['README.md', ...(manifest.files as string[]).filter((f) => /^guides\/.+\.md$/.test(f))];

/** Each section's prose (code and link targets left out), with its heading. */
function sectionsOf(markdown: string): { heading: string; prose: string }[] {
  return markdown
    .replace(/^```[\s\S]*?^```/gm, '')
    .split(/\n(?=#+ )/)
    .map((section) => {
      const [heading, ...rest] = section.split('\n');
      const prose = rest
        .join('\n')
        .replace(/`[^`]*`/g, 'CODE')
        .replace(/\]\([^)]*\)/g, ']');
      return { heading, prose };
    });
}

/** The first bare "sandbox" of a text: not "local sandbox", not "sandbox environment", not a guide's name in a link. */
function firstUnnamedSandbox(prose: string): string | undefined {
  // "Two sandboxes" names both; only the singular can mean either one.
  const first = /\bsandbox\b/i.exec(prose);
  if (!first) return undefined;
  const before = prose.slice(0, first.index);
  const after = prose.slice(first.index + first[0].length);
  if (/(local|in-page)\s+$/i.test(before) || /^\s+environment/i.test(after) || /\[$/.test(before)) return undefined;
  return prose.slice(Math.max(0, first.index - 40), first.index + first[0].length + 20).replace(/\s+/g, ' ');
}

describe('the shipped pages name the local sandbox at its first mention in each section', () => {
  it('finds a bare first mention (the check itself)', () => {
    expect(firstUnnamedSandbox('Start the sandbox, then the local sandbox.')).toBe(
      'Start the sandbox, then the local san',
    );
    expect(firstUnnamedSandbox('Start the local sandbox; the sandbox answers.')).toBeUndefined();
    expect(firstUnnamedSandbox("The service's sandbox environment.")).toBeUndefined();
    expect(firstUnnamedSandbox('See [Sandbox] for more.')).toBeUndefined();
    expect(firstUnnamedSandbox('These pages speak of two sandboxes: the local sandbox and the other.')).toBeUndefined();
  });

  it.each(SHIPPED)('%s', (file) => {
    expect(SHIPPED.length).toBeGreaterThan(5);
    const bare = sectionsOf(readFileSync(path.join(ROOT, file), 'utf8'))
      // A heading that names the local sandbox names it for its section.
      .map(({ heading, prose }) => ({
        heading,
        found: firstUnnamedSandbox(`${heading.replace(/^#+ /, '')}\n${prose}`),
      }))
      .filter((s) => s.found !== undefined);
    expect(bare, 'say "the local sandbox" or "the service\'s sandbox environment" at the first mention').toEqual([]);
  });
});
