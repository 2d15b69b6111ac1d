// The breaking-change gate: compares each API's bundled document in the
// working tree (generated/openapi/<api>.json) with the one at a base git ref
// and exits 1 when a change would break a consumer, or when a change the
// diff cannot judge has not been acknowledged by a person.
//
//   npm run diff                      # base: the last v* tag, else the first commit
//   npm run diff -- --base v0.1.0     # any commit, branch or tag
//   npm run diff -- --json            # machine output
//   npm run diff -- --markdown        # a summary to post on a pull request
//   npm run diff -- --against DIR_OR_FILE   # base from saved bundles instead of git
//   npm run diff -- --head-dir DIR    # head from another folder of bundles
//   npm run diff -- --acknowledged FILE     # reviewed changes (default .ci/diff-acknowledged.yaml)
//
// An API that did not exist at the base is reported as new, not breaking.
// The verdicts come from the structural diff (scripts/lib/contract-diff.mjs
// and schema-diff.mjs; rules in their headers): breaking, to review, or not
// breaking. A change to review fails the gate until an entry of the
// acknowledged file names it with a reason; a major version bump declares
// both kinds.
//
// No `redocly diff` leg any more. It used to run as a second opinion; on 117
// mutations of test/fixtures/diff-mutations.ts it caught 48 of the 56
// breaking ones (nothing the structural diff misses), rated 13 of the 51
// harmless ones major (an input's int32 → int64, the nullable idiom, explicit
// serialization defaults), named no endpoint for a shared schema, needed its
// own config to rate anything, cost a process per API and is marked
// experimental (guides/releasing.md, DECISIONS.md D5).
import { parseArgs } from 'node:util';
import path from 'node:path';
import { fail } from './lib/paths.mjs';
import { main } from './lib/run.mjs';
import {
  compareApis,
  declaresBreaking,
  defaultBaseRef,
  fileSource,
  formatMarkdown,
  formatReport,
  gitSource,
  headSource,
  jsonReport,
  loadAcknowledged,
  workingVersion,
} from './lib/contract-report.mjs';

const USAGE =
  'usage: npm run diff -- [--base <git-ref> | --against <file-or-dir>] [--head-dir <dir>] [--json | --markdown] [--acknowledged <file>]';

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
    if (values.base !== undefined && values.against !== undefined) fail(`--base and --against both name the base; pass one\n${USAGE}`);
    if (values.json && values.markdown) fail(`--json and --markdown both choose the output; pass one\n${USAGE}`);
    if (values.base === '') fail(`--base needs a git ref, for example --base v0.1.0\n${USAGE}`);
    return values;
  } catch (err) {
    return fail(`${err.message}\n${USAGE}`);
  }
}

main(async () => {
  const opts = options();
  const base = opts.against !== undefined ? fileSource(opts.against) : gitSource(opts.base ?? defaultBaseRef());
  const acknowledged = loadAcknowledged(opts.acknowledged === undefined ? undefined : path.resolve(opts.acknowledged));
  const report = await compareApis({ base, head: headSource(opts['head-dir']), acknowledged });
  console.log(opts.json ? JSON.stringify(jsonReport(report), null, 2) : opts.markdown ? formatMarkdown(report) : formatReport(report));
  if (!report.breaking && !report.needsReview) return;
  // A breaking change (or one to review) passes only when package.json
  // already declares it: the major version went up since the base. Bundles
  // given with --against carry no version, so they never pass one.
  const [from, to] = [base.version?.() ?? null, workingVersion()];
  if (opts['head-dir'] === undefined && declaresBreaking(from, to)) {
    const declared = report.breaking ? 'The breaking changes are' : 'The changes to review are';
    console.error(`${declared} declared by the version: ${from} → ${to}. Release notes: npm run changelog -- --version ${to}`);
    return;
  }
  const what = report.breaking ? 'these breaking changes' : 'these changes (or acknowledge them, see above)';
  console.error(
    from && to
      ? `package.json says ${to} and the base is ${from}: bump the major version to release ${what} (npm version major --no-git-tag-version), or undo them.`
      : `No package version to compare with: undo ${what}, or compare with a release tag (--base vX.Y.Z).`,
  );
  process.exitCode = 1;
});
