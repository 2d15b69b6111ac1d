// What `npm run diff` and `npm run changelog` share: where the base and head
// documents come from (a git ref, a folder, a file, or nothing for the first
// release), Redocly's verdict, and the per-API report.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { APIS } from './apis.mjs';
import { diffDocuments } from './contract-diff.mjs';
import { ROOT } from './paths.mjs';
import { runTool } from './run.mjs';

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
        return parse(git(['show', `${commit}:${BUNDLES}/${name}.${ext}`]));
      }
      return null;
    },
  };
}

const readDoc = (file) => readFile(file, 'utf8').then(parse);

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

/**
 * Runs `redocly diff` with the `diff-recommended` rules (the project's
 * redocly.yaml only extends `recommended`, under which redocly diff rates
 * every change a patch and passes). Resolves with its summary and its major
 * verdicts, or with `{ error }` when it cannot run: it is experimental, and
 * the structural diff still decides alone then.
 */
export async function redoclyDiff(baseDoc, headDoc) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'verification-contracts-diff-'));
  try {
    const [base, head, config, out] = ['base.json', 'head.json', 'redocly.yaml', 'report.json'].map((f) => path.join(dir, f));
    await Promise.all([
      writeFile(base, JSON.stringify(baseDoc)),
      writeFile(head, JSON.stringify(headDoc)),
      writeFile(config, 'extends:\n  - diff-recommended\ntelemetry: off\n'),
    ]);
    await runTool('redocly', ['diff', base, head, '--config', config, '--lint-config', 'off', '--format', 'json', '--fail-on', 'none', '-o', out], { quiet: true });
    const report = JSON.parse(await readFile(out, 'utf8'));
    const major = report.changes
      .filter((c) => c.impact === 'major')
      .flatMap((c) => c.verdicts.map((v) => ({ rule: v.ruleId, message: v.message, pointer: c.path })));
    return { bump: report.bump ?? null, summary: report.summary, major };
  } catch (err) {
    return { error: err.message.split('\n')[0] };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Compares every API of the package (and any the base has that the package
 * no longer has) and returns the report both scripts print.
 */
export async function compareApis({ base, head, redocly = true }) {
  const known = APIS.map((a) => a.name);
  const names = [...known, ...base.names().filter((n) => !known.includes(n))];
  const apis = [];
  for (const name of names) {
    const title = APIS.find((a) => a.name === name)?.title ?? name;
    const [baseDoc, headDoc] = await Promise.all([base.read(name), known.includes(name) ? head.read(name) : null]);
    if (!headDoc && known.includes(name)) {
      throw new Error(`the ${name} bundle is missing from ${head.label}; run \`npm run build\` first`);
    }
    if (!headDoc) {
      apis.push({
        name, title, status: 'removed', nonBreaking: [], redocly: null,
        breaking: [{ location: 'API', kind: 'api-removed', detail: `the ${name} API is no longer in the package` }],
      });
      continue;
    }
    const status = baseDoc ? 'changed' : 'new';
    const { breaking, nonBreaking } = diffDocuments(baseDoc ?? {}, headDoc);
    const verdict = baseDoc && redocly ? await redoclyDiff(baseDoc, headDoc) : null;
    const quiet = !breaking.length && !nonBreaking.length && !verdict?.major?.length;
    apis.push({ name, title, status: status === 'changed' && quiet ? 'unchanged' : status, breaking, nonBreaking, redocly: verdict });
  }
  const isBreaking = (api) => api.breaking.length > 0 || (api.redocly?.major?.length ?? 0) > 0;
  return { base: base.label, head: head.label, apis, breaking: apis.some(isBreaking), isBreaking };
}

/** The semver bump a report calls for: breaking → major, any other change → minor, else patch. */
export const bumpOf = (report) =>
  report.breaking ? 'major' : report.apis.some((a) => a.nonBreaking.length || a.status === 'new') ? 'minor' : 'patch';

/** Groups changes by location (endpoint or webhook), breaking ones first within each. */
export function byLocation(api) {
  const groups = new Map();
  for (const [isBreaking, list] of [
    [true, api.breaking],
    [false, api.nonBreaking],
  ]) {
    for (const change of list) {
      if (!groups.has(change.location)) groups.set(change.location, []);
      groups.get(change.location).push({ ...change, breaking: isBreaking });
    }
  }
  // Locations with a breaking change first, the rest in document order.
  return [...groups].sort(([, a], [, b]) => Number(b[0].breaking) - Number(a[0].breaking));
}

// An added operation or webhook is one line, not a heading with one entry.
export const ADDED = ['operation-added', 'webhook-added'];

/** Redocly's major verdicts, deduplicated, for printing. */
export const redoclyMajors = (verdict) => [...new Set((verdict?.major ?? []).map((m) => `${m.message} (${m.rule})`))];

/** The readable report of `npm run diff`. */
export function formatReport(report) {
  const lines = [`Contract diff: ${report.base} → ${report.head}`, ''];
  for (const api of report.apis) {
    const counts = `${api.breaking.length} breaking, ${api.nonBreaking.length} non-breaking`;
    const status = { new: 'new API (not at the base)', removed: 'removed', unchanged: 'no contract changes', changed: counts }[api.status];
    lines.push(`${api.name} (${api.title}): ${status}`);
    const r = api.redocly;
    if (r?.error) lines.push(`  redocly diff could not run (${r.error}); the structural diff decides alone`);
    else if (r) {
      const { major, minor, patch } = r.summary;
      lines.push(`  redocly diff (diff-recommended): ${major} major, ${minor} minor, ${patch} patch${r.bump ? ` → ${r.bump}` : ''}`);
      const majors = redoclyMajors(r);
      for (const m of majors.slice(0, 15)) lines.push(`    ${m}`);
      if (majors.length > 15) lines.push(`    … and ${majors.length - 15} more`);
    }
    for (const [location, changes] of byLocation(api)) {
      if (changes.length === 1 && ADDED.includes(changes[0].kind)) {
        lines.push(`  ${location}: ${changes[0].detail}`);
        continue;
      }
      lines.push(`  ${location}`);
      for (const c of changes) lines.push(`    ${c.breaking ? 'BREAKING' : 'ok      '}  ${c.detail}  [${c.kind}]`);
    }
    lines.push('');
  }
  const broken = report.apis.filter(report.isBreaking).map((a) => a.name);
  lines.push(
    broken.length
      ? `Breaking changes in: ${broken.join(', ')}. Release them as a new major version, or undo them.`
      : 'No breaking changes.',
  );
  return lines.join('\n');
}

/** The machine-readable report of `npm run diff -- --json`. */
export const jsonReport = (report) => ({
  base: report.base,
  head: report.head,
  breaking: report.breaking,
  bump: bumpOf(report),
  apis: report.apis.map((a) => ({ ...a, isBreaking: report.isBreaking(a) })),
});
