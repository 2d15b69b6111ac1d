// `npm run test-times`: puts the time of each test file of the last full
// `npm test` (test-results/test-times.json, written by
// test/helpers/file-times-reporter.ts) into the table of guides/testing.md,
// between its test-times markers. Refuses a run that did not cover every file.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fail, ROOT } from './lib/paths.mjs';

const REPORT = path.join(ROOT, 'test-results', 'test-times.json');
const GUIDE = path.join(ROOT, 'guides', 'testing.md');
const START = '<!-- test-times:start (npm run test-times writes this table) -->';
const END = '<!-- test-times:end -->';

const report = JSON.parse(await readFile(REPORT, 'utf8').catch(() => fail(`${REPORT} is missing; run \`npm test\` first`)));
const testFiles = (await readdir(path.join(ROOT, 'test'))).filter((f) => /\.test(-d)?\.ts$/.test(f)).map((f) => `test/${f}`);
const timed = new Set(report.files.map((f) => f.file));
const missing = testFiles.filter((f) => !timed.has(f));
if (missing.length) fail(`the last run did not cover ${missing.join(', ')}; run the whole suite (\`npm test\`) first`);
const failed = report.files.filter((f) => f.state !== 'passed');
if (failed.length) fail(`the last run had failing files (${failed.map((f) => f.file).join(', ')}); times of a failing run say nothing`);

const s = (ms) => (ms / 1000).toFixed(1);
const rows = [...report.files].sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file));
const total = rows.reduce((sum, f) => sum + f.ms, 0);
const table = [
  START,
  `Last full run: ${s(report.wallMs)} s of vitest wall time for ${s(total)} s of file time (${report.workers} workers on ${report.cpus} cores, load ${report.loadAtStart} at the start). Type-test files (\`.test-d.ts\`) are checked by one \`tsc\` run, whose time is not a file's.`,
  '',
  '| File | Tests | Seconds |',
  '|---|--:|--:|',
  ...rows.map((f) => `| \`${f.file}\` | ${f.tests} | ${s(f.ms)} |`),
  END,
].join('\n');

const guide = await readFile(GUIDE, 'utf8');
const from = guide.indexOf(START);
const to = guide.indexOf(END);
if (from === -1 || to === -1) fail(`guides/testing.md lacks the markers ${START} ... ${END}`);
await writeFile(GUIDE, guide.slice(0, from) + table + guide.slice(to + END.length));
console.log(`test-times: ${rows.length} files into guides/testing.md (vitest wall ${s(report.wallMs)} s)`);
