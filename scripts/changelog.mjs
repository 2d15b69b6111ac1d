// @ts-check
// `npm run changelog [-- --dry-run]`: writes the release notes of the next
// version into CHANGELOG.md from the contract diff against the last release,
// under the file's own header (which says to its readers where notes go).
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, fail } from './lib/paths.mjs';
import { runIfMain } from './lib/step.mjs';
import {
  bumpOf,
  changeGroups,
  compareApis,
  loadAcknowledged,
  onFreshBundles,
  reach,
  releaseSource,
  workingVersion,
} from './lib/contract-report.mjs';

const FILE = path.join(ROOT, 'CHANGELOG.md');
const USAGE = 'usage: npm run changelog [-- --dry-run]';
const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

/** Whether `--dry-run` was passed, the one option. */
function dryRun() {
  try {
    return parseArgs({ options: { 'dry-run': { type: 'boolean', default: false } } }).values['dry-run'];
  } catch (err) {
    return fail(`${/** @type {Error} */ (err).message}\n${USAGE}`);
  }
}

/** @type {(current: string | null, bump: string) => string} `bump` 'major' or 'minor'; anything else is a patch. */
export function nextVersion(current, bump) {
  const m = SEMVER.exec(current ?? '');
  if (!m)
    throw new Error(`the last release's version ${current} is not X.Y.Z, so the next one cannot be counted from it`);
  const [major, minor, patch] = m.slice(1).map(Number);
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

const MARK = { breaking: '**BREAKING** ', review: '**TO REVIEW** ', deprecated: '', ok: '' };
const places = (/** @type {string[]} */ locations) => locations.map((l) => `\`${l}\``).join(', ');

// The hand-written part of a section: everything between these two lines.
// The docs' changelog page shows it to partners, whose pages refuse
// maintainer talk (scripts/lib/doc-pages.mjs), so the marker names no command.
const NOTES_OPEN = '<!-- notes: written by hand, kept when this section is written again -->';
const NOTES_CLOSE = '<!-- /notes -->';
const NOTES = /^<!-- notes\b[^\n]*-->\n([\s\S]*?)^<!-- \/notes -->$/m;

/** @type {(g: import('./lib/contract-report.mjs').ChangeGroup) => string} One line per change. */
function changeLine(g) {
  const reviewed = g.acknowledged ? ` (reviewed: ${g.acknowledged})` : '';
  // An operation or webhook added, or a change at one place, reads best as that place's own line.
  if (g.locations.length === 1) return `- ${MARK[g.verdict]}\`${g.locations[0]}\`: ${g.at[0].detail}${reviewed}`;
  return `- ${MARK[g.verdict]}${g.about}${reviewed}; reaches ${reach(g.locations)}: ${places(g.locations)}`;
}

/**
 * The section of one release, with an empty place for its notes.
 * @param {{ version: string, date: string, report: import('./lib/contract-report.mjs').Report }} release
 */
export function renderSection({ version, date, report }) {
  const bump = bumpOf(report);
  const kind = report.breaking
    ? '**breaking changes**, a major release'
    : bump === 'minor'
      ? 'no breaking changes, a minor release'
      : 'no contract changes, a patch release';
  const lines = [
    `## ${version} (${date})`,
    '',
    NOTES_OPEN,
    NOTES_CLOSE,
    '',
    `Compared with ${report.base}: ${kind}.`,
    '',
  ];
  for (const api of report.apis) {
    lines.push(`### ${api.name}: ${api.title}${api.status === 'new' ? ' (new API)' : ''}`, '');
    const groups = changeGroups(api);
    if (!groups.length) {
      lines.push('No contract changes.', '');
      continue;
    }
    const changes = groups.filter((g) => g.verdict !== 'deprecated');
    const deprecations = groups.filter((g) => g.verdict === 'deprecated');
    if (changes.length) lines.push(...changes.map(changeLine), '');
    if (deprecations.length) lines.push('#### Deprecated', '', ...deprecations.map(changeLine), '');
  }
  return lines.join('\n');
}

/**
 * CHANGELOG.md with the section added on top, or in place of the same
 * version's, keeping the notes written in that version's section. The
 * entries under `## Unreleased` join the end of those notes: they are this release's.
 * @type {(text: string, version: string, section: string) => string}
 */
export function updateChangelog(text, version, section) {
  // Only a version heading starts a section: notes may hold headings of their own.
  const sections = text.split(/^(?=## \d+\.\d+\.\d+ )/m);
  // What comes before the first version: the header, and the entries under `## Unreleased`.
  let head = /^## \d/.test(sections[0]) ? '' : (sections.shift() ?? '');
  const pending = /^## Unreleased[^\n]*\n/m.exec(head);
  const entries = pending ? head.slice(pending.index + pending[0].length).trim() : '';
  if (pending) head = head.slice(0, pending.index);
  const old = sections.find((s) => s.startsWith(`## ${version} `));
  const notes = old && NOTES.exec(old);
  const written = notes ? section.replace(NOTES, () => notes[0]) : section;
  const fresh = entries ? withNotes(written, entries) : written;
  const kept = sections.filter((s) => s !== old);
  return `${[head, fresh, ...kept]
    .map((s) => s.trimEnd())
    .filter(Boolean)
    .join('\n\n')}\n`;
}

/** @type {(section: string, entries: string) => string} `entries` at the end of the section's notes. */
function withNotes(section, entries) {
  return section.replace(NOTES, (block, /** @type {string} */ kept) => {
    const open = block.slice(0, block.indexOf('\n') + 1);
    const before = kept.trimEnd();
    return `${open}${before ? `${before}\n\n` : ''}${entries}\n${NOTES_CLOSE}`;
  });
}

runIfMain(import.meta, async () => {
  const dry = dryRun();
  const base = releaseSource();
  // The sources as they are, bundled afresh, as `npm run diff` judges them.
  const report = await onFreshBundles((head) => compareApis({ base, head, acknowledged: loadAcknowledged() }));
  const [released, current] = [base.version(), workingVersion()];
  const required = nextVersion(released, bumpOf(report));
  // After `npm version`, package.json names the release being written.
  const version = current && current !== released ? current : required;
  if (version !== required)
    console.error(
      `warning: the diff against ${released} calls for a ${bumpOf(report)} release, ${required}; writing ${version} as package.json says`,
    );
  const section = renderSection({ version, date: new Date().toISOString().slice(0, 10), report });
  const text = updateChangelog(existsSync(FILE) ? readFileSync(FILE, 'utf8') : '', version, section);
  if (dry) {
    // The section as it would be written: the notes kept, the Unreleased entries joined to them.
    console.log(text.split(/^(?=## \d+\.\d+\.\d+ )/m).find((part) => part.startsWith(`## ${version} `)));
    return;
  }
  writeFileSync(FILE, text);
  console.log(`changelog: CHANGELOG.md has ${version} (a ${bumpOf(report)} release, compared with ${report.base})`);
  if (current !== version) console.log(`next: npm version ${version} --no-git-tag-version, then npm run build`);
  else console.log('next: npm run build (the docs carry the changelog), then npm test and commit the release');
});
