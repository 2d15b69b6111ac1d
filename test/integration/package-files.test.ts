// The tarball's exact file list, as `npm pack` makes it: what a partner
// installing the package gets, and nothing written for its maintainers. The
// guides partners read and openapi/DECISIONS.md ship; the maintainers' guides
// stay in the repository, and shipped pages reach them by the repository's
// address (test/package-links.test.ts, test/guides-links.test.ts). Every
// guide is one or the other, so a new guide is shipped or kept on purpose.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { sharedInstall } from '../helpers/packed-package.js';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';

const PARTNER_GUIDES = [
  'clients',
  'conformance',
  'generators',
  'mock',
  'sandbox',
  'sandbox-state',
  'sandbox-strictness',
  'webhooks',
].map((name) => `guides/${name}.md`);
// The guides' example projects, shipped so that their links work from the installed package.
const EXAMPLE_PROJECTS = ['guides/examples/worker-receiver'];
const EXAMPLE_FILES = ['wrangler.jsonc', 'worker.ts'].map((name) => `guides/examples/worker-receiver/${name}`);
const MAINTAINER_GUIDES = [
  'benchmarks',
  'contract',
  'contributing',
  'maintainers-decisions',
  'releasing',
  'testing',
].map((name) => `guides/${name}.md`);

// Everything the tarball holds outside the compiled code, by name.
const NAMED_FILES = [
  'package.json',
  'README.md',
  'CHANGELOG.md',
  'openapi/DECISIONS.md',
  ...PARTNER_GUIDES,
  ...EXAMPLE_FILES,
  ...['v2', 'partner', 'sandbox'].flatMap((api) => [`generated/openapi/${api}.json`, `generated/openapi/${api}.yaml`]),
  'generated/workflows/partner-sequences.arazzo.json',
];
const COMPILED = 'generated/lib/';
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** Every file under `dir`, as paths relative to the repository. */
function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

let files: string[] = [];

beforeAll(async () => {
  // The run's one tarball (packed without its prepack build, on this build).
  const { packed } = await sharedInstall();
  files = packed.files.map((file) => file.path);
}, HANG_CEILING_MS);

describe("the tarball's files", () => {
  it("ships the partners' guides and openapi/DECISIONS.md, and none of the maintainers' guides", () => {
    expect(files).toEqual(expect.arrayContaining([...PARTNER_GUIDES, 'openapi/DECISIONS.md']));
    expect(files.filter((file) => MAINTAINER_GUIDES.includes(file))).toEqual([]);
  });

  it('holds the named files and the compiled code, and nothing else', () => {
    expect(files.filter((file) => !file.startsWith(COMPILED)).sort()).toEqual([...NAMED_FILES].sort());
  });

  it('holds the compiled code as the build wrote it: every file under generated/lib, JavaScript and declarations only', () => {
    const compiled = files.filter((file) => file.startsWith(COMPILED));
    expect(compiled.sort()).toEqual(filesUnder(COMPILED).sort());
    expect(compiled.filter((file) => !/\.(?:js|d\.ts)$/.test(file))).toEqual([]);
  });

  it('holds every file the exports and the bin name', () => {
    const targets = [
      ...Object.values(manifest.exports as Record<string, string | Record<string, string>>).flatMap((target) =>
        typeof target === 'string' ? [target] : Object.values(target),
      ),
      ...Object.values(manifest.bin as Record<string, string>),
    ].map((target) => path.posix.normalize(target));
    expect(targets.filter((target) => !files.includes(target))).toEqual([]);
  });

  it("names each guide it ships in package.json's \"files\", and each guide in guides/ is a partner's or a maintainer's", () => {
    expect((manifest.files as string[]).filter((entry) => entry.startsWith('guides/')).sort()).toEqual(
      [...PARTNER_GUIDES, ...EXAMPLE_PROJECTS].sort(),
    );
    const guides = readdirSync(path.join(ROOT, 'guides'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `guides/${name}`);
    expect(guides.sort()).toEqual([...PARTNER_GUIDES, ...MAINTAINER_GUIDES].sort());
  });
});
