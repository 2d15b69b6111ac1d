// The breaking-change gate: compares each API's bundled document in the
// working tree (generated/openapi/<api>.json) with the one at a base git ref
// and exits 1 when a change would break a consumer.
//
//   npm run diff                      # base: the last v* tag, else the first commit
//   npm run diff -- --base v0.1.0     # any commit, branch or tag
//   npm run diff -- --json            # machine output
//   npm run diff -- --against DIR_OR_FILE   # base from saved bundles instead of git
//   npm run diff -- --head-dir DIR    # head from another folder of bundles
//   npm run diff -- --no-redocly      # skip redocly diff (structural diff only)
//
// An API that did not exist at the base is reported as new, not breaking.
// The verdict is the union of two checks: the structural diff of
// scripts/lib/contract-diff.mjs (rules in its header) and `redocly diff` with
// the `diff-recommended` rules (a major verdict fails the gate too).
//
// What `redocly diff` (Redocly CLI 2.77.0, experimental) does on these
// documents, measured on mutated copies of generated/openapi/v2.json, of a
// bundle of the partner sources (webhooks) and of small synthetic documents:
// - With the project's redocly.yaml (extends `recommended` only) it has no
//   diff rules: it warns, rates every change a patch and PASSES, even a
//   removed path. It must get a config that extends `diff-recommended`
//   (this script writes one to a temp folder and passes --config).
// - With diff-recommended it catches (major): removed path, removed method
//   (path kept), removed webhook, removed parameter, parameter renamed or
//   moved (query → header), new required parameter, parameter became
//   required, removed response field (top-level, nested, inside allOf, in a
//   webhook payload), response field became optional, removed response
//   status (also 201 → 200), removed/changed media type, new required request
//   field, request enum value removed, enum value added where the schema
//   reaches a response or webhook payload, narrowed request bounds (minimum
//   raised, maximum lowered, maxLength/maxItems lowered, minItems raised,
//   exclusiveMinimum, multipleOf, pattern or maxLength added, format changed,
//   additionalProperties: false), changed type (request and response),
//   nullability added to a response field, oneOf introduced, const changed,
//   security scheme changed, request body removed. It knows the direction:
//   webhook payloads count as output, and output narrowings (response enum
//   value removed, maxItems lowered, nullability removed, pattern added) and
//   input widenings (maximum raised, request enum value added) are patches.
//   A schema shared by a request and a response is judged by its strictest
//   use whichever comes first.
// - It misses or differs on: a removed request-body field (a patch for
//   Redocly; breaking here, like a removed parameter); and it reports a
//   change to a shared component once, at the first operation that uses it,
//   so the other endpoints and webhooks it affects are not named. Its JSON
//   report is marked reportVersion 1 / experimental.
// So it is run and its verdict printed; the per-endpoint and per-webhook
// report, the request-field rule and the release notes come from the
// structural diff, which also needs no tool to run.
import { parseArgs } from 'node:util';
import { fail } from './lib/paths.mjs';
import { main } from './lib/run.mjs';
import {
  compareApis,
  declaresBreaking,
  defaultBaseRef,
  fileSource,
  formatReport,
  gitSource,
  headSource,
  jsonReport,
  workingVersion,
} from './lib/contract-report.mjs';

const USAGE = 'usage: npm run diff -- [--base <git-ref> | --against <file-or-dir>] [--head-dir <dir>] [--json] [--no-redocly]';

function options() {
  try {
    const { values } = parseArgs({
      options: {
        base: { type: 'string' },
        against: { type: 'string' },
        'head-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        'no-redocly': { type: 'boolean', default: false },
      },
    });
    if (values.base !== undefined && values.against !== undefined) fail(`--base and --against both name the base; pass one\n${USAGE}`);
    if (values.base === '') fail(`--base needs a git ref, for example --base v0.1.0\n${USAGE}`);
    return values;
  } catch (err) {
    return fail(`${err.message}\n${USAGE}`);
  }
}

main(async () => {
  const opts = options();
  const base = opts.against !== undefined ? fileSource(opts.against) : gitSource(opts.base ?? defaultBaseRef());
  const report = await compareApis({ base, head: headSource(opts['head-dir']), redocly: !opts['no-redocly'] });
  console.log(opts.json ? JSON.stringify(jsonReport(report), null, 2) : formatReport(report));
  if (!report.breaking) return;
  // A breaking change passes only when package.json already declares it: the
  // major version went up since the base. Bundles given
  // with --against carry no version, so they never pass a breaking change.
  const [from, to] = [base.version?.() ?? null, workingVersion()];
  if (opts['head-dir'] === undefined && declaresBreaking(from, to)) {
    console.error(`The breaking changes are declared by the version: ${from} → ${to}. Release notes: npm run changelog -- --version ${to}`);
    return;
  }
  console.error(
    from && to
      ? `package.json says ${to} and the base is ${from}: bump the major version to release these breaking changes (npm version major --no-git-tag-version), or undo them.`
      : 'No package version to compare with: undo the breaking changes, or compare with a release tag (--base vX.Y.Z).',
  );
  process.exitCode = 1;
});
