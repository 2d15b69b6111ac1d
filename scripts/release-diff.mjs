// A build step: the new bundles against the last release's, as `npm run
// diff` compares them (scripts/lib/contract-report.mjs finds the release in
// package.json's history, never in tags), printing each breaking change
// once. It fails nothing (the gate, `npm run diff`, does): it runs right
// after the bundle step so that a response field renamed by mistake reads
// as what it is, a break for partners, before the compile step reports the
// same rename as type errors to spread through src/. Where history cannot
// tell (a shallow clone, a copy without git, no release yet) it says so in
// one line and stops.
import path from 'node:path';
import { compareApis, declaresBreaking, fileSource, releaseSource, workingVersion } from './lib/contract-report.mjs';
import { runIfMain } from './lib/step.mjs';

const PREFIX = 'release-diff:';

/** The lines the step prints: one per breaking change (by what it changed, with where it reaches), and a verdict. */
async function releaseDiffLines(out) {
  let base;
  let report;
  try {
    base = releaseSource();
    report = await compareApis({ base, head: fileSource(path.join(out, 'openapi'), { label: 'the new bundles' }) });
  } catch (err) {
    // The reason's first sentence: the rest (what to pass instead) is `npm run diff`'s to say.
    return [`${PREFIX} skipped, ${err.message.split('. ')[0]}`];
  }
  const release = `release ${base.version()}`;
  const lines = [];
  for (const api of report.apis) {
    // A change of a shared schema reaches many operations: one line for it, naming them.
    const reaches = new Map();
    for (const change of api.breaking) {
      if (!reaches.has(change.about)) reaches.set(change.about, new Set());
      reaches.get(change.about).add(change.location);
    }
    for (const [about, locations] of reaches) {
      const where = [...locations];
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
export async function releaseDiff(out) {
  const lines = await releaseDiffLines(out);
  for (const line of lines) console.log(line);
  return lines;
}

runIfMain(import.meta, releaseDiff);
