// @ts-check
// What `npm run diff` and `npm run changelog` share: where the base and head
// documents come from (the last release, a git ref or a folder), the
// acknowledged review items, and the per-API report in text, Markdown (for a
// pull-request comment) and JSON.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { bundle } from '../bundle.mjs';
import { APIS } from './apis.mjs';
import { diffDocuments } from './contract-diff.mjs';
import { ROOT } from './paths.mjs';

/**
 * @typedef {import('./contract-diff.mjs').Change} Change
 * @typedef {'breaking' | 'review' | 'deprecated' | 'ok'} Verdict
 * @typedef {{
 *   name: string, title: string, status: 'new' | 'removed' | 'unchanged' | 'changed',
 *   breaking: Change[], review: Change[], deprecated: Change[], nonBreaking: Change[],
 * }} ApiReport
 * @typedef {{
 *   base: string, head: string, apis: ApiReport[], breaking: boolean, needsReview: boolean, deprecates: boolean,
 *   stale: Acknowledged[], declared?: { from: string | null, to: string | null } | null, passes?: boolean,
 * }} Report
 * @typedef {{ verdict: Verdict, about: string, kind: string, acknowledged?: string, at: Change[], locations: string[] }} ChangeGroup
 * @typedef {{ api: string, change: string, location?: string, reason: string }} Acknowledged
 * Where the documents of one side come from; `read` gives null for an API the side does not have.
 * @typedef {{ label: string, names: () => string[], read: (name: string) => unknown, version?: () => string | null }} Source
 */

const BUNDLES = 'generated/openapi';
/** Where reviewed changes are acknowledged: a list of { api, change, location?, reason }. */
const ACKNOWLEDGED_FILE = '.ci/diff-acknowledged.yaml';
const ASK = 'Pass the base yourself: --base <commit or branch>';

/** A git command's output, or null when it fails. */
const git = (/** @type {string[]} */ args) => {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    return null;
  }
};
/** @returns {string | null} */
const versionIn = (/** @type {string | null} */ packageJson) => {
  try {
    return JSON.parse(packageJson ?? '').version ?? null;
  } catch {
    return null;
  }
};
const versionAt = (/** @type {string} */ commit) => versionIn(git(['show', `${commit}:package.json`]));

/**
 * The last release: the newest commit on HEAD's first-parent line that set
 * package.json's `version` (D6: tags do not travel with a clone). Throws,
 * saying how to give a base, when history cannot tell.
 */
function lastRelease() {
  const ask = `${ASK} (a commit from \`git log --oneline -- package.json\`), or --against <folder of bundles>.`;
  if (!git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])) {
    throw new Error(`this is not a git repository with commits, so the last release cannot be found. ${ask}`);
  }
  const shallow = git(['rev-parse', '--is-shallow-repository']) === 'true';
  const unshallow =
    'This clone is shallow (for example actions/checkout without `fetch-depth: 0`): fetch the history with `git fetch --unshallow`, or';
  const log = git(['log', '--first-parent', '--format=%H', '-G', '"version"', 'HEAD', '--', 'package.json']) ?? '';
  for (const commit of log.split('\n').filter(Boolean)) {
    const version = versionAt(commit);
    const parent = git(['rev-parse', '--verify', '--quiet', `${commit}^`]);
    // In a shallow clone the oldest commit looks like a root that set every line.
    if (!parent && shallow)
      throw new Error(
        `the last release is older than this clone's history. ${unshallow} ${ask[0].toLowerCase()}${ask.slice(1)}`,
      );
    if (version && version !== (parent ? versionAt(parent) : null)) return { commit, version };
  }
  throw new Error(
    `no commit on this branch sets package.json's version, so there is no release to compare with. ${shallow ? `${unshallow} ` : ''}${ask}`,
  );
}

/** The last release as a base: its commit's bundles, labelled with its version. */
export function releaseSource() {
  const { commit, version } = lastRelease();
  const at = `release ${version} (commit ${commit.slice(0, 7)}`;
  const source = gitSource(commit, { label: `${at}, the last to set package.json's version)` });
  if (!source.names().length) {
    throw new Error(`${at}) has no bundles in ${BUNDLES}/ to compare with. ${ASK}, or --against <folder of bundles>.`);
  }
  return source;
}

/** @type {(ref: string, options?: { label?: string }) => Required<Source>} Documents as they were at a git ref. */
export function gitSource(ref, { label } = {}) {
  const commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (!commit) {
    throw new Error(
      `--base ${ref} is not a commit, branch or tag of this repository. ` +
        'Pass an existing one: a branch, or a commit from `git log --oneline` (the releases: `git log --oneline -- package.json`).',
    );
  }
  const files = (git(['ls-tree', '--name-only', commit, `${BUNDLES}/`]) ?? '').split('\n').filter(Boolean);
  const names = [
    ...new Set(files.map((f) => path.basename(f).replace(/\.(json|yaml)$/, '')).filter((n) => !n.includes('.'))),
  ];
  return {
    label: label ?? (commit.startsWith(ref) ? commit.slice(0, 7) : `${ref} (${commit.slice(0, 7)})`),
    version: () => versionAt(commit),
    names: () => names,
    read(/** @type {string} */ name) {
      const file = ['json', 'yaml'].map((ext) => `${BUNDLES}/${name}.${ext}`).find((f) => files.includes(f));
      return file ? parseDocument(git(['show', `${commit}:${file}`]) ?? '', file) : null;
    },
  };
}

// JSON.parse for .json: the YAML parser reads JSON too, but takes seconds over the bundles.
const parseDocument = (/** @type {string} */ text, /** @type {string} */ file) =>
  file.endsWith('.json') ? JSON.parse(text) : parse(text);

/** @type {(target: string, options?: { label?: string }) => Source} Documents in a folder, each named after its API. */
export function fileSource(target, { label = target } = {}) {
  const full = path.resolve(target);
  if (!existsSync(full) || !statSync(full).isDirectory())
    throw new Error(`${target} is not a folder; pass a folder of bundled documents (<api>.json)`);
  const find = (/** @type {string} */ name) =>
    ['json', 'yaml', 'yml'].map((ext) => path.join(full, `${name}.${ext}`)).find(existsSync);
  return {
    label,
    names: () => APIS.map((a) => a.name).filter(find),
    read: async (/** @type {string} */ name) => {
      const file = find(name);
      return file ? parseDocument(await readFile(file, 'utf8'), file) : null;
    },
  };
}

/**
 * `judge` run on the sources under openapi/ bundled afresh into a scratch
 * folder: after a build that failed, generated/ holds the last good bundles.
 * @template T
 * @param {(head: Source) => Promise<T>} judge
 * @returns {Promise<T>}
 */
export async function onFreshBundles(judge) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vc-diff-'));
  try {
    await bundle(dir, { log: () => {} });
    return await judge(fileSource(path.join(dir, 'openapi'), { label: 'working tree (openapi/)' }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The package version in the working tree, which a release bumps before it is tagged. */
export const workingVersion = () => versionIn(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** @type {(base: string | null, head: string | null) => boolean} Whether the version declares a breaking release: a higher major (0.x included). */
export function declaresBreaking(base, head) {
  const major = (/** @type {string | null} */ v) => /^(\d+)\.\d+\.\d+/.exec(v ?? '')?.[1];
  const [b, h] = [major(base), major(head)];
  return b !== undefined && h !== undefined && Number(h) > Number(b);
}

/** @returns {Acknowledged[]} The acknowledged review items of a file (none when it does not exist), checked. */
export function loadAcknowledged(file = path.join(ROOT, ACKNOWLEDGED_FILE)) {
  if (!existsSync(file)) return [];
  const list = parse(readFileSync(file, 'utf8'))?.acknowledged ?? [];
  if (!Array.isArray(list))
    throw new Error(`${file}: \`acknowledged\` must be a list of { api, change, location?, reason }`);
  list.forEach((entry, i) => {
    for (const key of ['api', 'change', 'reason']) {
      if (typeof entry?.[key] !== 'string' || !entry[key].trim()) {
        throw new Error(
          `${file}: entry ${i + 1} has no \`${key}\`; each entry names the api, the change as \`npm run diff\` prints it, and the reason no client breaks`,
        );
      }
    }
  });
  return list;
}

/**
 * Compares every API of the package (and any the base has that the package
 * no longer has). A change to review that an entry of `acknowledged` names
 * moves to the non-breaking ones with that entry's reason.
 * @param {{ base: Source, head: Source, acknowledged?: Acknowledged[] }} sides
 * @returns {Promise<Report>}
 */
export async function compareApis({ base, head, acknowledged = [] }) {
  const known = APIS.map((a) => a.name);
  const names = [...known, ...base.names().filter((n) => !known.includes(n))];
  /** @type {ApiReport[]} */
  const apis = [];
  const used = new Set();
  for (const name of names) {
    const title = APIS.find((a) => a.name === name)?.title ?? name;
    const [baseDoc, headDoc] = await Promise.all([base.read(name), known.includes(name) ? head.read(name) : null]);
    if (!headDoc && known.includes(name)) {
      throw new Error(`the ${name} bundle is missing from ${head.label}; run \`npm run build\` first`);
    }
    if (!headDoc) {
      const detail = `the ${name} API is no longer in the package`;
      const removed = { location: 'API', kind: 'api-removed', detail, about: `the ${name} API removed` };
      apis.push({ name, title, status: 'removed', breaking: [removed], review: [], deprecated: [], nonBreaking: [] });
      continue;
    }
    const { breaking, review, deprecated, nonBreaking } = diffDocuments(baseDoc ?? {}, headDoc);
    const open = [];
    for (const change of review) {
      const entry = acknowledged.find(
        (e) =>
          e.api === name &&
          (e.location === undefined || e.location === change.location) &&
          (e.change === change.detail || e.change === change.about),
      );
      if (!entry) open.push(change);
      else {
        used.add(entry);
        nonBreaking.push({ ...change, acknowledged: entry.reason });
      }
    }
    const quiet = !breaking.length && !review.length && !deprecated.length && !nonBreaking.length;
    const status = !baseDoc ? 'new' : quiet ? 'unchanged' : 'changed';
    apis.push({ name, title, status, breaking, review: open, deprecated, nonBreaking });
  }
  return {
    base: base.label,
    head: head.label,
    apis,
    breaking: apis.some((a) => a.breaking.length > 0),
    needsReview: apis.some((a) => a.review.length > 0),
    deprecates: apis.some((a) => a.deprecated.length > 0),
    stale: acknowledged.filter((e) => !used.has(e)),
  };
}

/**
 * The gate's verdict: it fails on a breaking change or one to review, unless
 * the version declares them (bundles given by folder carry no version).
 * @type {<R extends { breaking: boolean, needsReview: boolean }>(report: R, versions?: { from?: string | null, to?: string | null }) => R & { declared: { from: string | null, to: string | null } | null, passes: boolean }}
 */
export function withVerdict(report, { from = null, to = null } = {}) {
  const flagged = report.breaking || report.needsReview;
  const declared = flagged && declaresBreaking(from, to) ? { from, to } : null;
  return { ...report, declared, passes: !flagged || declared !== null };
}

/** @type {(report: Report) => 'major' | 'minor' | 'patch'} A change still to review counts as breaking; a deprecation as minor. */
export const bumpOf = (report) =>
  report.breaking || report.needsReview
    ? 'major'
    : report.apis.some((a) => a.nonBreaking.length || a.deprecated.length || a.status === 'new')
      ? 'minor'
      : 'patch';

/** Each change of one API with its verdict, breaking ones first, then those to review, deprecations, the rest. */
const verdictsOf = (/** @type {ApiReport} */ api) =>
  /** @type {[Verdict, Change[]][]} */ ([
    ['breaking', api.breaking],
    ['review', api.review],
    ['deprecated', api.deprecated],
    ['ok', api.nonBreaking],
  ]).flatMap(([verdict, list]) => list.map((change) => ({ ...change, verdict })));

/** @type {(api: ApiReport) => ChangeGroup[]} Each change once, by what it changes (`about`), with every place it reaches. */
export function changeGroups(api) {
  /** @type {Map<string, ChangeGroup>} */
  const groups = new Map();
  for (const { verdict, ...c } of verdictsOf(api)) {
    const key = `${verdict}\n${c.about}`;
    const group = groups.get(key) ?? {
      verdict,
      about: c.about,
      kind: c.kind,
      acknowledged: c.acknowledged,
      at: [],
      locations: [],
    };
    groups.set(key, group);
    group.at.push(c);
    if (!group.locations.includes(c.location)) group.locations.push(c.location);
  }
  return [...groups.values()];
}

/** "2 operations and 1 webhook": how far a change reaches. */
export function reach(/** @type {string[]} */ locations) {
  const hooks = locations.filter((l) => l.startsWith('webhook ')).length;
  const count = (/** @type {number} */ n, /** @type {string} */ what) => (n ? [`${n} ${what}${n > 1 ? 's' : ''}`] : []);
  return [...count(locations.length - hooks, 'operation'), ...count(hooks, 'webhook')].join(' and ');
}

/** What to do about a report, in one paragraph each. */
function verdictLines(/** @type {Report} */ report) {
  const lines = [];
  const names = (/** @type {(api: ApiReport) => unknown} */ has) => report.apis.filter(has).map((a) => a.name);
  const [broken, toReview, deprecating] = [
    names((a) => a.breaking.length),
    names((a) => a.review.length),
    names((a) => a.deprecated.length),
  ];
  if (report.declared) {
    const { from, to } = report.declared;
    lines.push(
      `${broken.length ? 'Breaking changes' : 'Changes to review'} in: ${[...new Set([...broken, ...toReview])].join(', ')}, declared by the version ${from} → ${to} (a new major release).`,
    );
  } else {
    if (broken.length)
      lines.push(`Breaking changes in: ${broken.join(', ')}. Release them as a new major version, or undo them.`);
    if (toReview.length)
      lines.push(
        `Changes the gate cannot judge, in: ${toReview.join(', ')}. Have a person check that no client breaks, then acknowledge each in ${ACKNOWLEDGED_FILE} ` +
          '(api, change as printed, reason); or release a new major version, or undo them.',
      );
  }
  if (!lines.length) lines.push('No breaking changes.');
  if (deprecating.length) {
    lines.push(
      `Deprecations in: ${deprecating.join(', ')}. They pass the gate; \`npm run changelog\` lists them under "Deprecated" in the release notes: ` +
        'say there, in the notes part of the section, what replaces each and when it goes (guides/contract.md, "Deprecate a field").',
    );
  }
  for (const e of report.stale ?? [])
    lines.push(
      `Note: the acknowledgement "${e.change}" (${e.api}) matches no change any more; delete it from ${ACKNOWLEDGED_FILE}.`,
    );
  return lines;
}

const MARK = { breaking: 'BREAKING', review: 'REVIEW  ', deprecated: 'DEPRECATED', ok: 'ok      ' };
// An added operation or webhook is one line, not a heading with one entry.
const ADDED = ['operation-added', 'webhook-added'];

/** `npm run diff`'s report: each API's changes by location, those with a breaking change first, then those to review. */
export function formatReport(/** @type {Report} */ report) {
  const lines = [`Contract diff: ${report.base} → ${report.head}`, ''];
  for (const api of report.apis) {
    const counts = `${api.breaking.length} breaking, ${api.review.length} to review, ${api.deprecated.length} deprecated, ${api.nonBreaking.length} non-breaking`;
    const status = { new: 'new API (not at the base)', removed: 'removed', unchanged: 'no contract changes' };
    lines.push(`${api.name} (${api.title}): ${api.status === 'changed' ? counts : status[api.status]}`);
    /** @type {Map<string, ReturnType<typeof verdictsOf>>} */
    const byLocation = new Map();
    for (const c of verdictsOf(api)) byLocation.set(c.location, [...(byLocation.get(c.location) ?? []), c]);
    const rank = (/** @type {{ verdict: Verdict }[]} */ [first]) =>
      first.verdict === 'breaking' ? 0 : first.verdict === 'review' ? 1 : 2;
    for (const [location, changes] of [...byLocation].sort(([, a], [, b]) => rank(a) - rank(b))) {
      if (changes.length === 1 && ADDED.includes(changes[0].kind)) {
        lines.push(`  ${location}: ${changes[0].detail}`);
        continue;
      }
      lines.push(`  ${location}`);
      for (const c of changes) {
        const note = c.acknowledged ? ` (acknowledged: ${c.acknowledged})` : '';
        lines.push(`    ${MARK[c.verdict]}  ${c.detail}  [${c.kind}]${note}`);
        // The text to paste into the acknowledged file covers every operation the change reaches.
        if (c.verdict === 'review')
          lines.push(`              to acknowledge everywhere: change: ${JSON.stringify(c.about)}`);
      }
    }
    lines.push('');
  }
  lines.push(...verdictLines(report));
  return lines.join('\n');
}

// Code spans that survive backticks inside the text.
const code = (/** @type {string} */ text) => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);
const MARKDOWN_LIMIT = 60;
/** The Markdown sections by verdict: heading, and the line before the list (the additive ones fold away). */
const SECTIONS = /** @type {[Verdict, string, string?][]} */ ([
  ['breaking', 'Breaking changes'],
  [
    'review',
    'To review by hand',
    `The gate cannot judge these; it fails until each is acknowledged in ${code(ACKNOWLEDGED_FILE)} with a reason.`,
  ],
  ['deprecated', 'Deprecated: tell partners', 'Not breaking; the release notes list them under "Deprecated".'],
  ['ok', 'Additive and other non-breaking changes', '<details><summary>Show</summary>'],
]);

/** The pull-request comment of `npm run diff -- --markdown`: per verdict, each change once, with every place it reaches. */
export function formatMarkdown(/** @type {Report} */ report) {
  const groups = report.apis.flatMap((api) => changeGroups(api).map((g) => ({ ...g, api: api.name })));
  const count = (/** @type {Verdict} */ verdict) => groups.filter((g) => g.verdict === verdict).length;
  // The mark agrees with the exit code: ✅ passes, ❌ and ⚠️ fail.
  const verdict = report.declared
    ? `✅ **${count('breaking') ? 'Breaking changes' : 'Changes to review'} declared by the version ${report.declared.from} → ${report.declared.to}**`
    : count('breaking')
      ? '❌ **Breaking changes**'
      : count('review')
        ? '⚠️ **Changes to review by hand**'
        : '✅ **No breaking changes**';
  const lines = ['## Contract diff', '', `${verdict}: ${code(report.base)} → ${code(report.head)}`, ''];
  const apis = report.apis.map(
    (a) =>
      `${a.name} ${a.status === 'changed' ? `${a.breaking.length}/${a.review.length}/${a.deprecated.length}/${a.nonBreaking.length}` : a.status}`,
  );
  lines.push(`Per API (breaking/to review/deprecated/non-breaking): ${apis.join(', ')}.`, '');
  for (const [kind, heading, before] of SECTIONS) {
    const listed = groups.filter((g) => g.verdict === kind);
    if (!listed.length) continue;
    lines.push(`### ${heading} (${listed.length})`, '', ...(before ? [before, ''] : []));
    for (const g of listed.slice(0, MARKDOWN_LIMIT)) {
      lines.push(
        `- **${g.api}** ${code(g.about)} (${g.kind}); reaches ${reach(g.locations)}${g.acknowledged ? `; acknowledged: ${g.acknowledged}` : ''}`,
      );
      // One line of places when the change reads the same everywhere; else each place with its own wording.
      if (g.at.every((c) => c.detail === g.at[0].detail)) lines.push(`  - ${g.locations.map(code).join(', ')}`);
      else for (const c of g.at) lines.push(`  - ${code(c.location)}: ${code(c.detail)}`);
    }
    if (listed.length > MARKDOWN_LIMIT)
      lines.push(`- … and ${listed.length - MARKDOWN_LIMIT} more: run \`npm run diff\` for the whole list`);
    lines.push(...(kind === 'ok' ? ['', '</details>'] : []), '');
  }
  lines.push(...verdictLines(report).map((l) => `> ${l}`));
  return lines.join('\n');
}

/** The machine-readable report of `npm run diff -- --json`. */
export const jsonReport = (/** @type {Report} */ report) => ({
  base: report.base,
  head: report.head,
  breaking: report.breaking,
  needsReview: report.needsReview,
  deprecates: report.deprecates,
  declared: report.declared ?? null,
  passes: report.passes ?? !(report.breaking || report.needsReview),
  bump: bumpOf(report),
  staleAcknowledgements: report.stale,
  apis: report.apis.map((a) => ({ ...a, isBreaking: a.breaking.length > 0 })),
});
