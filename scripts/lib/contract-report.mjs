// What `npm run diff` and `npm run changelog` share: where the base and head
// documents come from (a git ref, a folder, a file, or nothing for the first
// release), the acknowledged review items, and the per-API report in text,
// Markdown (for a pull-request comment) and JSON.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { APIS } from './apis.mjs';
import { diffDocuments } from './contract-diff.mjs';
import { ROOT } from './paths.mjs';

const BUNDLES = 'generated/openapi';

const git = (args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const tryGit = (args) => {
  try {
    return git(args);
  } catch {
    return null;
  }
};

/** The newest release tag (`v*`) reachable from HEAD, or null. */
export const lastReleaseTag = () => tryGit(['describe', '--tags', '--abbrev=0', '--match', 'v*']) || null;

/** The default base: the last release tag, else the first commit. */
export function defaultBaseRef() {
  const tag = lastReleaseTag();
  if (tag) return tag;
  const roots = tryGit(['rev-list', '--max-parents=0', 'HEAD']);
  if (!roots) throw new Error('this is not a git repository with commits; pass --against FILE_OR_DIR to compare with saved documents');
  return roots.split('\n').pop();
}

/** Documents as they were at a git ref (`generated/openapi/<api>.json`, else `.yaml`). */
export function gitSource(ref) {
  const commit = tryGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (!commit) {
    throw new Error(
      `--base ${ref} is not a commit, branch or tag of this repository. ` +
        "Pass an existing one (release tags: `git tag --list 'v*'`; or a commit from `git log --oneline`).",
    );
  }
  const files = (tryGit(['ls-tree', '--name-only', commit, `${BUNDLES}/`]) ?? '').split('\n').filter(Boolean);
  const names = [...new Set(files.map((f) => path.basename(f).replace(/\.(json|yaml)$/, '')).filter((n) => !n.includes('.')))];
  return {
    label: commit.startsWith(ref) ? commit.slice(0, 7) : `${ref} (${commit.slice(0, 7)})`,
    version: () => packageVersion(tryGit(['show', `${commit}:package.json`])),
    names: () => names,
    read(name) {
      for (const ext of ['json', 'yaml']) {
        if (!files.includes(`${BUNDLES}/${name}.${ext}`)) continue;
        return parseDocument(git(['show', `${commit}:${BUNDLES}/${name}.${ext}`]), `${name}.${ext}`);
      }
      return null;
    },
  };
}

// JSON.parse for .json: the YAML parser reads JSON too, but takes seconds over the bundles.
const parseDocument = (text, file) => (file.endsWith('.json') ? JSON.parse(text) : parse(text));
const readDoc = (file) => readFile(file, 'utf8').then((text) => parseDocument(text, file));

/** Documents in a folder (`<api>.json` or `<api>.yaml`), or one file named after its API. */
export function fileSource(target, { label = target } = {}) {
  const full = path.resolve(target);
  if (!existsSync(full)) throw new Error(`${target} does not exist; pass a bundled document (<api>.json) or a folder of them`);
  if (statSync(full).isFile()) {
    const name = path.basename(full).replace(/\.(json|ya?ml)$/, '');
    return { label, names: () => [name], read: async (n) => (n === name ? readDoc(full) : null) };
  }
  const find = (name) => ['json', 'yaml', 'yml'].map((ext) => path.join(full, `${name}.${ext}`)).find(existsSync);
  return {
    label,
    names: () => APIS.map((a) => a.name).filter(find),
    read: async (name) => (find(name) ? readDoc(find(name)) : null),
  };
}

const packageVersion = (text) => {
  try {
    return JSON.parse(text).version ?? null;
  } catch {
    return null;
  }
};

/** The package version in the working tree, which a release bumps before it is tagged. */
export const workingVersion = () => packageVersion(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/**
 * Whether going from version `base` to `head` declares a breaking release: a
 * higher major, the project's rule for every breaking change (0.x included).
 */
export function declaresBreaking(base, head) {
  const major = (v) => /^(\d+)\.\d+\.\d+/.exec(v ?? '')?.[1];
  const [b, h] = [major(base), major(head)];
  return b !== undefined && h !== undefined && Number(h) > Number(b);
}

/** No documents: the first release, where everything is new. */
export const emptySource = () => ({ label: 'nothing (first release)', names: () => [], read: async () => null });

/** The working tree's bundles, or another folder of them. */
export const headSource = (dir) =>
  fileSource(dir ?? path.join(ROOT, BUNDLES), { label: dir ?? 'working tree (generated/openapi)' });

/** Where reviewed changes are acknowledged: a list of { api, change, location?, reason }. */
export const ACKNOWLEDGED_FILE = '.ci/diff-acknowledged.yaml';

/** The acknowledged review items of a file (none when it does not exist), checked. */
export function loadAcknowledged(file = path.join(ROOT, ACKNOWLEDGED_FILE)) {
  if (!existsSync(file)) return [];
  const list = parse(readFileSync(file, 'utf8'))?.acknowledged ?? [];
  if (!Array.isArray(list)) throw new Error(`${file}: \`acknowledged\` must be a list of { api, change, location?, reason }`);
  list.forEach((entry, i) => {
    for (const key of ['api', 'change', 'reason']) {
      if (typeof entry?.[key] !== 'string' || !entry[key].trim()) {
        throw new Error(`${file}: entry ${i + 1} has no \`${key}\`; each entry names the api, the change as \`npm run diff\` prints it, and the reason no client breaks`);
      }
    }
  });
  return list;
}

const acknowledges = (entry, api, change) =>
  entry.api === api && (entry.location === undefined || entry.location === change.location) && (entry.change === change.detail || entry.change === change.about);

/**
 * Compares every API of the package (and any the base has that the package
 * no longer has) and returns the report both scripts print. A change to
 * review that an entry of `acknowledged` names moves to the non-breaking ones
 * with that entry's reason.
 */
export async function compareApis({ base, head, acknowledged = [] }) {
  const known = APIS.map((a) => a.name);
  const names = [...known, ...base.names().filter((n) => !known.includes(n))];
  const apis = [];
  const used = new Set();
  for (const name of names) {
    const title = APIS.find((a) => a.name === name)?.title ?? name;
    const [baseDoc, headDoc] = await Promise.all([base.read(name), known.includes(name) ? head.read(name) : null]);
    if (!headDoc && known.includes(name)) {
      throw new Error(`the ${name} bundle is missing from ${head.label}; run \`npm run build\` first`);
    }
    if (!headDoc) {
      apis.push({
        name, title, status: 'removed', nonBreaking: [], review: [],
        breaking: [{ location: 'API', kind: 'api-removed', detail: `the ${name} API is no longer in the package`, about: `the ${name} API removed` }],
      });
      continue;
    }
    const { breaking, review, nonBreaking } = diffDocuments(baseDoc ?? {}, headDoc);
    const open = [];
    for (const change of review) {
      const entry = acknowledged.find((e) => acknowledges(e, name, change));
      if (!entry) open.push(change);
      else {
        used.add(entry);
        nonBreaking.push({ ...change, acknowledged: entry.reason });
      }
    }
    const quiet = !breaking.length && !review.length && !nonBreaking.length;
    apis.push({ name, title, status: !baseDoc ? 'new' : quiet ? 'unchanged' : 'changed', breaking, review: open, nonBreaking });
  }
  const isBreaking = (api) => api.breaking.length > 0;
  return {
    base: base.label,
    head: head.label,
    apis,
    breaking: apis.some(isBreaking),
    needsReview: apis.some((a) => a.review.length > 0),
    stale: acknowledged.filter((e) => !used.has(e)),
    isBreaking,
  };
}

/**
 * The semver bump a report calls for: breaking → major (a change still to
 * review counts as breaking until acknowledged), any other change → minor,
 * else patch.
 */
export const bumpOf = (report) =>
  report.breaking || report.needsReview ? 'major' : report.apis.some((a) => a.nonBreaking.length || a.status === 'new') ? 'minor' : 'patch';

/** Groups changes by location (endpoint or webhook), breaking ones first within each. */
export function byLocation(api) {
  const groups = new Map();
  for (const [verdict, list] of [
    ['breaking', api.breaking],
    ['review', api.review ?? []],
    ['ok', api.nonBreaking],
  ]) {
    for (const change of list) {
      if (!groups.has(change.location)) groups.set(change.location, []);
      groups.get(change.location).push({ ...change, verdict, breaking: verdict === 'breaking' });
    }
  }
  // Locations with a breaking change first, then those to review, the rest in document order.
  const rank = (changes) => (changes[0].verdict === 'breaking' ? 0 : changes[0].verdict === 'review' ? 1 : 2);
  return [...groups].sort(([, a], [, b]) => rank(a) - rank(b));
}

// An added operation or webhook is one line, not a heading with one entry.
export const ADDED = ['operation-added', 'webhook-added'];

const MARK = { breaking: 'BREAKING', review: 'REVIEW  ', ok: 'ok      ' };

/** What to do about a failing report, in one paragraph each. */
function verdictLines(report) {
  const lines = [];
  const broken = report.apis.filter(report.isBreaking).map((a) => a.name);
  const toReview = report.apis.filter((a) => a.review.length).map((a) => a.name);
  if (broken.length) lines.push(`Breaking changes in: ${broken.join(', ')}. Release them as a new major version, or undo them.`);
  if (toReview.length) {
    lines.push(
      `Changes the gate cannot judge, in: ${toReview.join(', ')}. Have a person check that no client breaks, then acknowledge each in ${ACKNOWLEDGED_FILE} ` +
        '(api, change as printed, reason); or release a new major version, or undo them.',
    );
  }
  if (!lines.length) lines.push('No breaking changes.');
  for (const e of report.stale ?? []) lines.push(`Note: the acknowledgement "${e.change}" (${e.api}) matches no change any more; delete it from ${ACKNOWLEDGED_FILE}.`);
  return lines;
}

/** The readable report of `npm run diff`. */
export function formatReport(report) {
  const lines = [`Contract diff: ${report.base} → ${report.head}`, ''];
  for (const api of report.apis) {
    const counts = `${api.breaking.length} breaking, ${api.review.length} to review, ${api.nonBreaking.length} non-breaking`;
    const status = { new: 'new API (not at the base)', removed: 'removed', unchanged: 'no contract changes', changed: counts }[api.status];
    lines.push(`${api.name} (${api.title}): ${status}`);
    for (const [location, changes] of byLocation(api)) {
      if (changes.length === 1 && ADDED.includes(changes[0].kind)) {
        lines.push(`  ${location}: ${changes[0].detail}`);
        continue;
      }
      lines.push(`  ${location}`);
      for (const c of changes) {
        const note = c.acknowledged ? ` (acknowledged: ${c.acknowledged})` : '';
        lines.push(`    ${MARK[c.verdict]}  ${c.detail}  [${c.kind}]${note}`);
        // The text to paste into the acknowledged file covers every operation the change reaches.
        if (c.verdict === 'review') lines.push(`              to acknowledge everywhere: change: ${JSON.stringify(c.about)}`);
      }
    }
    lines.push('');
  }
  lines.push(...verdictLines(report));
  return lines.join('\n');
}

// Code spans that survive backticks inside the text.
const code = (text) => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);
const MARKDOWN_LIMIT = 60;

/** One Markdown section: each change once, with every operation and webhook it reaches. */
function markdownSection(report, list) {
  const groups = new Map();
  for (const api of report.apis) {
    for (const c of list(api)) {
      const key = `${api.name}\n${c.about ?? c.detail}`;
      if (!groups.has(key)) groups.set(key, { api: api.name, about: c.about ?? c.detail, kind: c.kind, acknowledged: c.acknowledged, at: [] });
      groups.get(key).at.push(c);
    }
  }
  const lines = [];
  for (const g of [...groups.values()].slice(0, MARKDOWN_LIMIT)) {
    const locations = [...new Set(g.at.map((c) => c.location))];
    const hooks = locations.filter((l) => l.startsWith('webhook ')).length;
    const count = [[locations.length - hooks, 'operation'], [hooks, 'webhook']].filter(([n]) => n).map(([n, w]) => `${n} ${w}${n > 1 ? 's' : ''}`);
    lines.push(`- **${g.api}** ${code(g.about)} (${g.kind}); reaches ${count.join(' and ')}${g.acknowledged ? `; acknowledged: ${g.acknowledged}` : ''}`);
    // One line of places when the change reads the same everywhere; else each place with its own wording.
    if (g.at.every((c) => c.detail === g.at[0].detail)) lines.push(`  - ${locations.map(code).join(', ')}`);
    else for (const c of g.at) lines.push(`  - ${code(c.location)}: ${code(c.detail)}`);
  }
  if (groups.size > MARKDOWN_LIMIT) lines.push(`- … and ${groups.size - MARKDOWN_LIMIT} more: run \`npm run diff\` for the whole list`);
  return { count: groups.size, lines };
}

/** The report of `npm run diff -- --markdown`, for a pull-request comment. */
export function formatMarkdown(report) {
  const breaking = markdownSection(report, (a) => a.breaking);
  const review = markdownSection(report, (a) => a.review);
  const additive = markdownSection(report, (a) => a.nonBreaking);
  const verdict = breaking.count ? '❌ **Breaking changes**' : review.count ? '⚠️ **Changes to review by hand**' : '✅ **No breaking changes**';
  const lines = ['## Contract diff', '', `${verdict}: ${code(report.base)} → ${code(report.head)}`, ''];
  const apis = report.apis.map((a) => `${a.name} ${a.status === 'changed' ? `${a.breaking.length}/${a.review.length}/${a.nonBreaking.length}` : a.status}`);
  lines.push(`Per API (breaking/to review/non-breaking): ${apis.join(', ')}.`, '');
  if (breaking.count) lines.push(`### Breaking changes (${breaking.count})`, '', ...breaking.lines, '');
  if (review.count) {
    lines.push(`### To review by hand (${review.count})`, '', `The gate cannot judge these; it fails until each is acknowledged in ${code(ACKNOWLEDGED_FILE)} with a reason.`, '', ...review.lines, '');
  }
  if (additive.count) lines.push(`### Additive and other non-breaking changes (${additive.count})`, '', '<details><summary>Show</summary>', '', ...additive.lines, '', '</details>', '');
  lines.push(...verdictLines(report).map((l) => `> ${l}`));
  return lines.join('\n');
}

/** The machine-readable report of `npm run diff -- --json`. */
export const jsonReport = (report) => ({
  base: report.base,
  head: report.head,
  breaking: report.breaking,
  needsReview: report.needsReview,
  bump: bumpOf(report),
  staleAcknowledgements: report.stale,
  apis: report.apis.map((a) => ({ ...a, isBreaking: report.isBreaking(a) })),
});
