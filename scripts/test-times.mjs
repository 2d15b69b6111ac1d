// `npm run test-times`: prints each test file's time (import, hooks and tests)
// in the last full `npm test`, slowest first, from
// test-results/test-times.json (written by test/helpers/file-times-reporter.ts):
// where to look when the suite gets slower. Nothing reads these times back;
// files start in vitest's own order.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fail, ROOT } from './lib/paths.mjs';

const REPORT = path.join(ROOT, 'test-results', 'test-times.json');

const report = JSON.parse(
  await readFile(REPORT, 'utf8').catch(() => fail(`${REPORT} is missing; run the whole suite (\`npm test\`) first`)),
);
const s = (ms) => (ms / 1000).toFixed(1);
const rows = [...report.files].sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file));
const total = rows.reduce((sum, f) => sum + f.ms, 0);
const failed = rows.filter((f) => f.state !== 'passed');
const width = Math.max(...rows.map((f) => f.file.length));

console.log(
  `Last full run: ${s(report.wallMs)} s of vitest wall time for ${s(total)} s of file time (${report.workers} workers on ${report.cpus} cores, load ${report.loadAtStart} at the start).`,
);
// A failure may cut a file short or stretch it to a timeout.
if (failed.length) console.log(`Failed in it, so timed unlike a passing run: ${failed.map((f) => f.file).join(', ')}.`);
console.log("Type-test files (.test-d.ts) are checked by one tsc run, whose time is not a file's.\n");
console.log(`${'file'.padEnd(width)}  tests  seconds`);
for (const f of rows) console.log(`${f.file.padEnd(width)}  ${String(f.tests).padStart(5)}  ${s(f.ms).padStart(7)}`);
