// `npm run size`: the formatted lines of the code against its budgets (the
// repository is Biome-formatted, so the lines as they stand are Biome's),
// the number of test files, and the files over a module's size. A report:
// it always exits 0.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/paths.mjs';

const BUDGETS = { src: 9000, scripts: 5000, test: 18000 };
const LARGE = 400;

/** Lines of each tracked .ts/.mjs/.js file below the budgeted folders, by path. */
function formattedLines() {
  const listed = execFileSync('git', ['ls-files', '-z', '--', ...Object.keys(BUDGETS)], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const lines = new Map();
  for (const file of listed.split('\0')) {
    // A file deleted but not yet staged is still listed; it has no lines.
    if (!/\.(ts|mjs|js)$/.test(file) || !existsSync(path.join(ROOT, file))) continue;
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    lines.set(file, text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
  }
  return lines;
}

const lines = formattedLines();
const n = (count) => count.toLocaleString('en-US');
console.log('Formatted lines of the tracked .ts/.mjs/.js files (Biome lays out every one of them):');
for (const [folder, budget] of Object.entries(BUDGETS)) {
  let total = 0;
  for (const [file, count] of lines) if (file.startsWith(`${folder}/`)) total += count;
  const verdict = total <= budget ? 'within' : `OVER by ${n(total - budget)}`;
  console.log(`  ${`${folder}/`.padEnd(9)} ${n(total).padStart(7)} of ${n(budget).padStart(6)}  ${verdict}`);
}
const tests = [...lines.keys()].filter((file) => file.endsWith('.test.ts'));
console.log(`Test files: ${tests.length}`);
const large = [...lines].filter(([, count]) => count > LARGE).sort((a, b) => b[1] - a[1]);
console.log(`Files over ${LARGE} lines: ${large.length}`);
for (const [file, count] of large) console.log(`  ${String(count).padStart(5)}  ${file}`);
