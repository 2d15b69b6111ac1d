// A build step: the sources, bundled afresh, against the last release's
// bundles, as `npm run diff` compares them, printing each breaking change
// once. It fails nothing (the gate does) and waits for no other step, so a
// response field renamed by mistake reads as a break for partners even when
// the lint refuses the examples still naming it, and before compile reports
// the rename as type errors to spread through src/.
import {
  changeGroups,
  compareApis,
  declaresBreaking,
  onFreshBundles,
  releaseSource,
  workingVersion,
} from './lib/contract-report.mjs';
import { runIfMain } from './lib/step.mjs';

const PREFIX = 'release-diff:';

/** The lines the step prints: one per breaking change (by what it changed, with where it reaches), and a verdict. */
async function releaseDiffLines() {
  let base;
  let report;
  try {
    base = releaseSource();
    const from = base;
    report = await onFreshBundles((head) => compareApis({ base: from, head }));
  } catch (err) {
    // The reason's first sentence: the rest (what to pass instead) is `npm run diff`'s to say.
    return [`${PREFIX} skipped, ${err.message.split('. ')[0]}`];
  }
  const release = `release ${base.version()}`;
  const lines = [];
  for (const api of report.apis) {
    // A change of a shared schema reaches many operations: one line for it, naming them.
    for (const { verdict, about, locations: where } of changeGroups(api)) {
      if (verdict !== 'breaking') continue;
      const shown = where.slice(0, 3).join(', ') + (where.length > 3 ? ` and ${where.length - 3} more` : '');
      lines.push(`breaking against ${release}: ${api.name} ${about} (${shown})`);
    }
  }
  const version = workingVersion();
  const verdict = !lines.length
    ? 'nothing breaking'
    : declaresBreaking(base.version(), version)
      ? `${lines.length} breaking, declared by package.json's ${version} (a major release)`
      : `${lines.length} breaking: a partner's code breaks on each line above; undo it (a rename adds the new field and deprecates the old, guides/contract.md), or the gate, npm run diff, fails until package.json declares a major version`;
  lines.push(`${PREFIX} against ${release}, ${verdict}`);
  return lines;
}

/** Prints the lines, and returns them for the build's summary. */
export async function releaseDiff() {
  const lines = await releaseDiffLines();
  for (const line of lines) console.log(line);
  return lines;
}

runIfMain(import.meta, releaseDiff);
