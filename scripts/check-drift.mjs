// Fails when the committed part of generated/ (COMMITTED_OUTPUTS; the rest is
// not in git, so it cannot drift) differs from what the sources produce now:
// the steps writing it are rebuilt into a scratch folder, compared file by file.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { COMMITTED_OUTPUTS, GENERATED } from './lib/paths.mjs';
import { main } from './lib/run.mjs';
import { buildSteps, stepsWriting } from './lib/steps.mjs';

// Enough lines to see what kind of drift it is without burying the fix.
const LISTED = 20;

/** Every file below the committed folders of an output root, relative to it. */
async function committedFiles(root) {
  const listed = await Promise.all(
    COMMITTED_OUTPUTS.map(async (dir) => {
      const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true }).catch(() => []);
      return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
    }),
  );
  return listed.flat().sort();
}

/** Where two texts first differ: the line, and a short stretch of each around the first differing character. */
function firstDifference(have, want) {
  if (have.includes(0) || want.includes(0)) return 'binary file';
  const [a, b] = [have.toString('utf8').split('\n'), want.toString('utf8').split('\n')];
  let line = 0;
  while (line < a.length && line < b.length && a[line] === b[line]) line++;
  const [x = '', y = ''] = [a[line], b[line]];
  let col = 0;
  while (col < x.length && col < y.length && x[col] === y[col]) col++;
  const around = (text, present) =>
    present ? JSON.stringify(text.slice(Math.max(0, col - 20), col + 40)) : '(no such line)';
  return `line ${line + 1}: has ${around(x, line < a.length)}, the sources give ${around(y, line < b.length)}`;
}

export async function checkDrift() {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'verification-contracts-drift-'));
  try {
    // The steps that write the committed folders, and those they run after, one by one.
    const steps = buildSteps(scratch);
    for (const name of stepsWriting(steps, scratch, COMMITTED_OUTPUTS)) await steps[name].fn(scratch);
    const [want, have] = await Promise.all([committedFiles(scratch), committedFiles(GENERATED)]);
    const folders = COMMITTED_OUTPUTS.map((d) => `generated/${d}/`).join(', ');
    const problems = [];
    for (const file of [...new Set([...want, ...have])].sort()) {
      if (!have.includes(file)) problems.push(`missing: generated/${file}`);
      else if (!want.includes(file)) problems.push(`stale (no source produces it): generated/${file}`);
      else {
        const [a, b] = await Promise.all([readFile(path.join(GENERATED, file)), readFile(path.join(scratch, file))]);
        if (!a.equals(b)) problems.push(`out of date: generated/${file} (${firstDifference(a, b)})`);
      }
    }
    if (problems.length) {
      const more = problems.length > LISTED ? `\n  ... and ${problems.length - LISTED} more` : '';
      throw new Error(
        `the committed part of generated/ does not match the sources (${problems.length} ${problems.length === 1 ? 'file' : 'files'}):\n  ${problems.slice(0, LISTED).join('\n  ')}${more}\n` +
          `Run \`npm run build\` and commit ${folders}.`,
      );
    }
    console.log(`check-drift: ${folders} match a fresh build of the sources (${want.length} files)`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

main(checkDrift);
