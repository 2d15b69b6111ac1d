// The commands of the breaking-change gate, `npm run diff` and `npm run
// changelog`, on folders of the bundles' snapshot, one of them mutated.
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { APIS } from '../scripts/lib/apis.mjs';
import {
  compareApis,
  declaresBreaking,
  fileSource,
  formatMarkdown,
  withVerdict,
} from '../scripts/lib/contract-report.mjs';
import { ROOT } from '../scripts/lib/paths.mjs';
import { SNAPSHOT_DIR, snapshotBundle } from './fixtures/bundles.js';
import { type Edit, all, del, drop, set } from './fixtures/diff-mutations.js';
import { nextVersion, renderSection, updateChangelog } from '../scripts/changelog.mjs';
import type { Json } from '../src/contract/json.js';

const GET = 'GET /v2/verifications/{id}';
const LIST = 'GET /v2/verifications/';
const NO_PHONE = all(del('S/Verification/properties/phoneNo'), drop('S/Verification/required', 'phoneNo'));
const LOCALE = set('S/Verification/properties/locale', { type: 'string' });
const NO_404 = del(`[${GET}]/responses/404`);

// Scratch folders of bundles: `base` holds the snapshot's copies, `head`
// the mutated ones; the CLI reads them with --against and --head-dir.
const scratch = mkdtempSync(path.join(os.tmpdir(), 'verification-contracts-diff-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
function bundleDirs(name: string, ...edits: Edit[]) {
  const dirs = { base: path.join(scratch, name, 'base'), head: path.join(scratch, name, 'head') };
  for (const dir of Object.values(dirs)) {
    mkdirSync(dir, { recursive: true });
    for (const api of APIS) {
      const file = path.join(SNAPSHOT_DIR, `${api.name}.json`);
      if (existsSync(file)) copyFileSync(file, path.join(dir, `${api.name}.json`));
    }
  }
  const head = snapshotBundle('v2');
  all(...edits)(head);
  writeFileSync(path.join(dirs.head, 'v2.json'), JSON.stringify(head));
  return dirs;
}

const run = (args: string[]) =>
  promisify(execFile)(process.execPath, ['scripts/diff.mjs', ...args], { cwd: ROOT }).then(
    (r) => ({ code: 0, ...r }),
    (err) => ({ code: err.code as number, stdout: err.stdout as string, stderr: err.stderr as string }),
  );
/** `npm run diff` from the base folder to the head folder. */
const gate = (dirs: { base: string; head: string }, ...args: string[]) =>
  run(['--against', dirs.base, '--head-dir', dirs.head, ...args]);
/** The report of the snapshot against its copy with the edits made, and the release section it writes. */
async function reportOf(name: string, ...edits: Edit[]) {
  const dirs = bundleDirs(name, ...edits);
  const report = await compareApis({ base: fileSource(dirs.base), head: fileSource(dirs.head) });
  return { report, section: renderSection({ version: '2.1.0', date: '2026-02-01', report }) };
}

describe('npm run diff', () => {
  it('reads the base from a git ref (--base HEAD), and passes HEAD compared with itself', async () => {
    // HEAD's own bundles as the head: a source edited but not yet committed (a recipe under way) is not judged here.
    const head = path.join(scratch, 'head-of-HEAD');
    mkdirSync(head, { recursive: true });
    for (const { name } of APIS) {
      const committed = execFileSync('git', ['show', `HEAD:generated/openapi/${name}.json`], { cwd: ROOT });
      writeFileSync(path.join(head, `${name}.json`), committed);
    }
    const result = await run(['--base', 'HEAD', '--head-dir', head]);
    expect(result.stderr).toBe('');
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/No breaking changes\.$/m);
    expect(result.stdout).toContain('v2 (Verification API v2)');
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(result.stdout).toContain(`This calls for a patch release after ${version}`);
  });

  it('exits 1 and names the endpoint on a breaking change', async () => {
    const dirs = bundleDirs('removed-field', NO_PHONE);
    const result = await gate(dirs);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toContain(`  ${GET}\n    BREAKING  response 200: field phoneNo removed`);
    expect(result.stdout).toMatch(/Breaking changes in: v2\./);
  });

  it('exits 0 on non-breaking changes and lists them; --json gives machine output', async () => {
    const dirs = bundleDirs('added-field', LOCALE);
    const result = await gate(dirs, '--json');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.breaking).toBe(false);
    expect(report.bump).toBe('minor');
    const v2Report = report.apis.find((a: Json) => a.name === 'v2');
    expect(v2Report.breaking).toEqual([]);
    expect(v2Report.nonBreaking).toContainEqual({
      location: GET,
      kind: 'field-added',
      detail: 'response 200: field locale added (optional)',
      about: 'schema Verification: field locale added (optional)',
    });
  });

  it('--markdown prints a pull-request summary: each breaking change with the operations it reaches, then the additive ones', async () => {
    const dirs = bundleDirs('markdown', NO_PHONE, LOCALE);
    const result = await gate(dirs, '--markdown');
    expect(result.code, result.stderr).toBe(1);
    const md = result.stdout;
    expect(md).toMatch(/^## Contract diff\n\n❌ \*\*Breaking changes\*\*/);
    const breaking = md.indexOf('### Breaking changes (1)');
    const additive = md.indexOf('### Additive and other non-breaking changes (1)');
    expect(breaking).toBeGreaterThan(-1);
    expect(additive).toBeGreaterThan(breaking);
    const section = md.slice(breaking, additive);
    expect(section).toContain(
      '- **v2** `schema Verification: field phoneNo removed` (field-removed); reaches 2 operations',
    );
    expect(section).toContain(`\`${GET}\`: \`response 200: field phoneNo removed\``);
    expect(section).toContain(`\`${LIST}\`: \`response 200: field items[].phoneNo removed\``);
    expect(md.slice(additive)).toContain('`schema Verification: field locale added (optional)`');
    expect(md).toMatch(/^> Breaking changes in: v2\./m);
  });

  it('a change the diff cannot judge fails the gate until a person acknowledges it with a reason', async () => {
    const dirs = bundleDirs('review', set('P/CreatedFrom/schema/format', 'date'));
    const failing = await gate(dirs);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain(`  ${LIST}\n    REVIEW    query parameter createdFrom: format date-time → date`);
    expect(failing.stdout).toMatch(
      /Changes the gate cannot judge, in: v2\. .*acknowledge each in \.ci\/diff-acknowledged\.yaml/,
    );

    const json = JSON.parse((await gate(dirs, '--json')).stdout);
    expect(json.breaking).toBe(false);
    expect(json.needsReview).toBe(true);
    const [item] = json.apis.find((a: Json) => a.name === 'v2').review;
    const file = path.join(scratch, 'review', 'acknowledged.yaml');
    const write = (entries: object[]) => writeFileSync(file, JSON.stringify({ acknowledged: entries }));

    write([{ api: 'v2', change: item.about, reason: 'Clients send dates only; checked with the partners.' }]);
    const passing = await gate(dirs, '--acknowledged', file);
    expect(passing.code, passing.stdout + passing.stderr).toBe(0);
    expect(passing.stdout).toContain('(acknowledged: Clients send dates only; checked with the partners.)');

    write([{ api: 'v2', change: item.about, location: GET, reason: 'Acknowledged for another endpoint only.' }]);
    expect((await gate(dirs, '--acknowledged', file)).code).toBe(1);

    write([{ api: 'v2', change: item.about }]);
    const noReason = await gate(dirs, '--acknowledged', file);
    expect(noReason.code).toBe(1);
    expect(noReason.stderr).toMatch(/entry 1 has no `reason`/);

    write([
      { api: 'v2', change: item.about, reason: 'checked' },
      { api: 'v2', change: 'a change long gone', reason: 'old' },
    ]);
    const stale = await gate(dirs, '--acknowledged', file);
    expect(stale.code).toBe(0);
    expect(stale.stdout).toContain('the acknowledgement "a change long gone" (v2) matches no change any more');
  });

  it('a deprecation passes the gate and is listed apart, for partners: text, --json and --markdown', async () => {
    const dirs = bundleDirs('deprecated', set('S/Verification/properties/phoneNo/deprecated', true), LOCALE);
    const text = await gate(dirs);
    expect(text.code, text.stdout + text.stderr).toBe(0);
    expect(text.stdout).toContain('v2 (Verification API v2): 0 breaking, 0 to review, 2 deprecated, 2 non-breaking');
    expect(text.stdout).toContain(
      `  ${GET}\n    DEPRECATED  response 200: field phoneNo deprecated  [deprecated]\n    ok        response 200: field locale added`,
    );
    expect(text.stdout).toMatch(
      /^No breaking changes\.\nDeprecations in: v2\. They pass the gate; .*"Deprecated".*guides\/contract\.md, "Deprecate a field"/m,
    );
    // The recipe the message sends the reader to.
    expect(readFileSync(path.join(ROOT, 'guides', 'contract.md'), 'utf8')).toMatch(/^### Deprecate a field$/m);

    const json = JSON.parse((await gate(dirs, '--json')).stdout);
    expect(json).toMatchObject({ breaking: false, needsReview: false, deprecates: true, passes: true, bump: 'minor' });
    const v2Report = json.apis.find((a: Json) => a.name === 'v2');
    expect(v2Report.deprecated.map((c: Json) => c.about)).toEqual([
      'schema Verification: field phoneNo deprecated',
      'schema Verification: field phoneNo deprecated',
    ]);
    expect(v2Report.nonBreaking.map((c: Json) => c.kind)).toEqual(['field-added', 'field-added']);

    const md = (await gate(dirs, '--markdown')).stdout;
    expect(md).toMatch(/^## Contract diff\n\n✅ \*\*No breaking changes\*\*/);
    expect(md).toContain('Per API (breaking/to review/deprecated/non-breaking): v2 0/0/2/2');
    const deprecations = md.indexOf('### Deprecated: tell partners (1)');
    const additive = md.indexOf('### Additive and other non-breaking changes (1)');
    expect(deprecations).toBeGreaterThan(-1);
    expect(additive).toBeGreaterThan(deprecations);
    expect(md.slice(deprecations, additive)).toContain(
      '- **v2** `schema Verification: field phoneNo deprecated` (deprecated); reaches 2 operations',
    );
    expect(md.slice(deprecations, additive)).not.toContain('locale');
  });
});

describe('a breaking change declared by the version', () => {
  it('passes only when the major version went up since the base', () => {
    expect(declaresBreaking('0.1.0', '1.0.0')).toBe(true);
    expect(declaresBreaking('1.4.2', '2.0.0')).toBe(true);
    expect(declaresBreaking('0.1.0', '0.2.0')).toBe(false);
    expect(declaresBreaking('1.4.2', '1.5.0')).toBe(false);
    expect(declaresBreaking('2.0.0', '2.0.0')).toBe(false);
    expect(declaresBreaking(null, '2.0.0')).toBe(false);
    expect(declaresBreaking('1.0.0', 'next')).toBe(false);
  });

  it('the Markdown verdict agrees with the gate: ✅ only when the version declares the breaking changes', async () => {
    const { report } = await reportOf('declared-markdown', NO_404);
    const declared = withVerdict(report, { from: '2.0.0', to: '3.0.0' });
    expect(declared.passes).toBe(true);
    expect(formatMarkdown(declared)).toMatch(/^✅ \*\*Breaking changes declared by the version 2\.0\.0 → 3\.0\.0\*\*/m);
    const undeclared = withVerdict(report, { from: '2.0.0', to: '2.1.0' });
    expect(undeclared.passes).toBe(false);
    expect(formatMarkdown(undeclared)).toMatch(/^❌ \*\*Breaking changes\*\*/m);
  });
});

describe('npm run changelog', () => {
  it('computes the next version per semver', () => {
    expect(nextVersion('1.4.2', 'major')).toBe('2.0.0');
    expect(nextVersion('1.4.2', 'minor')).toBe('1.5.0');
    expect(nextVersion('1.4.2', 'patch')).toBe('1.4.3');
  });

  it('lists each change once, by what it changes, with every operation it reaches', async () => {
    const { section } = await reportOf('changelog-field', LOCALE);
    expect(section).toContain('no breaking changes, a minor release');
    const lines = section.split('\n').filter((l) => l.includes('locale'));
    expect(lines).toEqual([
      `- schema Verification: field locale added (optional); reaches 2 operations: \`${GET}\`, \`${LIST}\``,
    ]);
    expect(section).not.toMatch(/first release/i);
  });

  it('puts breaking changes first and marks them; a new version goes on top, the same version is replaced', async () => {
    const { section } = await reportOf(
      'changelog',
      set('[/v2/health]', { get: { summary: 'Health', responses: { '200': { description: 'ok' } } } }),
      NO_404,
    );
    const v2Part = section.slice(section.indexOf('### v2'));
    expect(v2Part).toContain(`- **BREAKING** \`${GET}\`: response 404 removed`);
    expect(v2Part.indexOf('**BREAKING**')).toBeLessThan(v2Part.indexOf('`GET /v2/health`: operation added (Health)'));
    expect(section).toContain('**breaking changes**, a major release');

    const first = updateChangelog('# Changelog\n', '0.1.0', '## 0.1.0 (2026-01-01)\n\nFirst.');
    const second = updateChangelog(first, '2.1.0', section);
    expect(second.indexOf('## 2.1.0')).toBeLessThan(second.indexOf('## 0.1.0'));
    expect(second.startsWith('# Changelog')).toBe(true);
    const again = updateChangelog(second, '2.1.0', section);
    expect(again).toBe(second);
  });

  it('lists deprecations under "Deprecated" in their API, each with the places it reaches', async () => {
    const { section } = await reportOf(
      'changelog-deprecated',
      set('S/Verification/properties/phoneNo/deprecated', true),
      set('P/PageSize/deprecated', true),
      LOCALE,
    );
    expect(section).toContain('no breaking changes, a minor release');
    const v2Part = section.slice(section.indexOf('### v2'), section.indexOf('### partner'));
    const [changes, deprecated] = v2Part.split('#### Deprecated\n');
    expect(deprecated.trim().split('\n')).toEqual([
      `- schema Verification: field phoneNo deprecated; reaches 2 operations: \`${GET}\`, \`${LIST}\``,
      `- \`${LIST}\`: query parameter pageSize deprecated`,
    ]);
    expect(changes).toContain('field locale added (optional)');
    expect(changes).not.toContain('deprecated');
  });

  it('keeps the notes written by hand in a section, byte for byte, when the tool writes that version again', async () => {
    const { section } = await reportOf('changelog-notes', LOCALE);
    const lines = section.split('\n');
    expect(lines[0]).toBe('## 2.1.0 (2026-02-01)');
    const [open, close] = [lines.findIndex((l) => /^<!-- notes\b.*-->$/.test(l)), lines.indexOf('<!-- /notes -->')];
    expect([open, close], 'an empty place for notes right under the heading').toEqual([2, 3]);

    const older = updateChangelog(
      '',
      '2.0.0',
      '## 2.0.0 (2026-01-01)\n\n<!-- notes -->\nOlder notes.\n<!-- /notes -->\n\nOlder changes.',
    );
    const written = updateChangelog(older, '2.1.0', section);
    const notes =
      'Use `phoneNumbers` instead of `phoneNo`  \nby **June**.\n\n## A heading in the notes\n\n- with a list\n';
    const edited = written.replace(/(<!-- notes\b[^\n]*-->\n)(<!-- \/notes -->)/, `$1${notes}$2`);
    expect(edited).not.toBe(written);

    const { report: later } = await reportOf(
      'changelog-notes-later',
      LOCALE,
      set('S/Verification/properties/region', { type: 'string' }),
    );
    const again = updateChangelog(
      edited,
      '2.1.0',
      renderSection({ version: '2.1.0', date: '2026-02-02', report: later }),
    );
    expect(again).toContain(`-->\n${notes}<!-- /notes -->`);
    expect(again).toContain('## 2.1.0 (2026-02-02)');
    expect(again).not.toContain('## 2.1.0 (2026-02-01)');
    expect(again).toContain('schema Verification: field region added (optional)');
    expect(again).toContain('<!-- notes -->\nOlder notes.\n<!-- /notes -->');
    expect(again.match(/^## 2\.1\.0 /gm)).toHaveLength(1);
    expect(
      updateChangelog(again, '2.1.0', renderSection({ version: '2.1.0', date: '2026-02-02', report: later })),
    ).toBe(again);
  });

  it('takes the entries under "## Unreleased" into the notes of the release it writes, after notes already there', () => {
    const released = updateChangelog('# Changelog\n', '1.0.0', '## 1.0.0 (2026-01-01)\n\nFirst.');
    const pending = released.replace(
      /\n## 1\.0\.0/,
      '\n## Unreleased\n\n- Examples: one token per verification.\n\n## 1.0.0',
    );
    const section = ['## 1.1.0 (2026-02-01)', '', '<!-- notes -->', 'Kept.', '<!-- /notes -->', '', 'Changes.'].join(
      '\n',
    );
    const written = updateChangelog(pending, '1.1.0', section);
    expect(written).not.toMatch(/^## Unreleased/m);
    expect(written).toContain('<!-- notes -->\nKept.\n\n- Examples: one token per verification.\n<!-- /notes -->');
    expect(written.indexOf('## 1.1.0')).toBeLessThan(written.indexOf('## 1.0.0'));
    expect(updateChangelog(written, '1.1.0', section), 'writing the release again changes nothing').toBe(written);
  });
});
