// @ts-check
// `npm run diff`, the breaking-change gate (guides/releasing.md): each API's
// bundle in the working tree against a base (the last release, --base
// <git-ref>, or --against saved bundles). It exits 1 on a breaking change or
// one to review that no person acknowledged, unless a major version declares
// them, and 2 when the bundles are older than their sources (a build that
// failed since), since it would judge the last good build instead.
import { parseArgs } from 'node:util';
import path from 'node:path';
import { fail } from './lib/paths.mjs';
import { main } from './lib/run.mjs';
import {
  bumpOf,
  compareApis,
  fileSource,
  formatMarkdown,
  formatReport,
  gitSource,
  headSource,
  jsonReport,
  loadAcknowledged,
  releaseSource,
  withVerdict,
  workingVersion,
} from './lib/contract-report.mjs';
import { staleBundle } from './lib/stale-bundles.mjs';

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

/** Why the working tree's bundles cannot be judged, or undefined when they can. */
async function staleRefusal() {
  const stale = await staleBundle();
  if (!stale) return undefined;
  const why = stale.source
    ? `${stale.source} changed after ${stale.bundle} was last built from it`
    : `${stale.bundle} is missing`;
  return `${why}, so the gate would judge bundles that do not hold the sources as they are (did the last build fail?). Run npm run build until it passes, then npm run diff again.`;
}

main(async () => {
  const opts = options();
  const refusal = opts['head-dir'] === undefined ? await staleRefusal() : undefined;
  if (refusal) {
    console.error(`error: ${refusal}`);
    process.exitCode = 2;
    return;
  }
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
  const report = withVerdict(await compareApis({ base, head: headSource(opts['head-dir']), acknowledged }), {
    from,
    to,
  });
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
