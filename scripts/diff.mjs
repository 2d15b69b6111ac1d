// @ts-check
// `npm run diff`, the breaking-change gate (guides/releasing.md): the sources
// under openapi/, bundled afresh (after a build that failed, generated/ holds
// the last good one), against a base (the last release, --base <git-ref>, or
// --against saved bundles). It exits 1 on a breaking change or one to review
// that no person acknowledged, unless a major version declares them.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fail } from './lib/paths.mjs';
import { main } from './lib/run.mjs';
import {
  bumpOf,
  compareApis,
  fileSource,
  formatMarkdown,
  formatReport,
  gitSource,
  jsonReport,
  loadAcknowledged,
  onFreshBundles,
  releaseSource,
  withVerdict,
  workingVersion,
} from './lib/contract-report.mjs';

const USAGE =
  'usage: npm run diff -- [--base <git-ref> | --against <folder>] [--head-dir <dir>] [--json | --markdown] [--acknowledged <file>]';

function options() {
  try {
    const { values } = parseArgs({
      options: {
        base: { type: 'string' },
        against: { type: 'string' },
        'head-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        markdown: { type: 'boolean', default: false },
        acknowledged: { type: 'string' },
      },
    });
    if (values.base !== undefined && values.against !== undefined)
      fail(`--base and --against both name the base; pass one\n${USAGE}`);
    if (values.json && values.markdown) fail(`--json and --markdown both choose the output; pass one\n${USAGE}`);
    if (values.base === '') fail(`--base needs a git ref, for example --base v0.1.0\n${USAGE}`);
    return values;
  } catch (err) {
    return fail(`${/** @type {Error} */ (err).message}\n${USAGE}`);
  }
}

main(async () => {
  const opts = options();
  const base =
    opts.against !== undefined
      ? fileSource(opts.against)
      : opts.base !== undefined
        ? gitSource(opts.base)
        : releaseSource();
  const acknowledged = loadAcknowledged(opts.acknowledged === undefined ? undefined : path.resolve(opts.acknowledged));
  // Bundles given with --against or --head-dir carry no version, so they never declare a breaking change.
  const from = base.version?.() ?? null;
  const to = opts['head-dir'] === undefined ? workingVersion() : null;
  // Bundles named by --head-dir, else the sources bundled afresh.
  const judge = async (/** @type {import('./lib/contract-report.mjs').Source} */ head) =>
    withVerdict(await compareApis({ base, head, acknowledged }), { from, to });
  const report =
    opts['head-dir'] === undefined ? await onFreshBundles(judge) : await judge(fileSource(opts['head-dir']));
  console.log(
    opts.json
      ? JSON.stringify(jsonReport(report), null, 2)
      : opts.markdown
        ? formatMarkdown(report)
        : formatReport(report),
  );
  // The release's second step takes this word (guides/releasing.md); a base without a version has no next one.
  if (!opts.json && !opts.markdown && from)
    console.log(
      `This calls for a ${bumpOf(report)} release after ${from}: npm version ${bumpOf(report)} --no-git-tag-version`,
    );
  if (report.declared) console.error(`Release notes: npm run changelog (guides/releasing.md)`);
  if (report.passes) return;
  const what = report.breaking ? 'these breaking changes' : 'these changes (or acknowledge them, see above)';
  console.error(
    from && to
      ? `package.json says ${to} and the base is ${from}: bump the major version to release ${what} (npm version major --no-git-tag-version), or undo them.`
      : `No package version to compare with: undo ${what}, or compare with a commit (--base <commit or branch>).`,
  );
  process.exitCode = 1;
});
