// `npm run test-times`: puts the time of each test file of the last full
// `npm test` (test-results/test-times.json, written by
// test/helpers/file-times-reporter.ts) into the table of guides/testing.md,
// between its test-times markers. Refuses a run that did not cover every
// file. A file that failed keeps the time the table has for it (a failure
// may have cut it short); one the table does not have yet must pass first.
// So a new test file gets its time even when the run failed only because
// the table lacked it (test/architecture.test.ts).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fail, ROOT } from './lib/paths.mjs';
import { recordedTimes, TIMES_END as END, TIMES_GUIDE as GUIDE, TIMES_START as START, timesRow } from './lib/test-times.mjs';

const REPORT = path.join(ROOT, 'test-results', 'test-times.json');

const report = JSON.parse(await readFile(REPORT, 'utf8').catch(() => fail(`${REPORT} is missing; run \`npm test\` first`)));
const testFiles = (await readdir(path.join(ROOT, 'test'))).filter((f) => /\.test(-d)?\.ts$/.test(f)).map((f) => `test/${f}`);
const timed = new Set(report.files.map((f) => f.file));
const missing = testFiles.filter((f) => !timed.has(f));
if (missing.length) fail(`the last run did not cover ${missing.join(', ')}; run the whole suite (\`npm test\`) first`);
const guide = await readFile(GUIDE, 'utf8');
const recorded = recordedTimes(guide);
const failed = report.files.filter((f) => f.state !== 'passed');
const untimed = failed.filter((f) => !recorded.has(f.file));
if (untimed.length) {
  fail(`${untimed.map((f) => f.file).join(', ')} failed in the last run and the table has no time for it yet; make it pass, run \`npm test\` again, then \`npm run test-times\``);
}

const s = (ms) => (ms / 1000).toFixed(1);
const rows = report.files
  .map((f) => (f.state === 'passed' ? f : { ...f, ...recorded.get(f.file), ms: recorded.get(f.file).seconds * 1000 }))
  .sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file));
const total = rows.reduce((sum, f) => sum + f.ms, 0);
const kept = failed.length ? ` ${failed.map((f) => `\`${f.file}\``).join(', ')} failed in it and keep${failed.length === 1 ? 's' : ''} the time of the run before.` : '';
const table = [
  START,
  `Last full run: ${s(report.wallMs)} s of vitest wall time for ${s(total)} s of file time (${report.workers} workers on ${report.cpus} cores, load ${report.loadAtStart} at the start).${kept} Type-test files (\`.test-d.ts\`) are checked by one \`tsc\` run, whose time is not a file's.`,
  '',
  '| File | Tests | Seconds |',
  '|---|--:|--:|',
  ...rows.map((f) => timesRow(f.file, f.tests, f.ms / 1000)),
  END,
].join('\n');

const from = guide.indexOf(START);
const to = guide.indexOf(END);
if (from === -1 || to === -1) fail(`guides/testing.md lacks the markers ${START} ... ${END}`);
await writeFile(GUIDE, guide.slice(0, from) + table + guide.slice(to + END.length));
console.log(`test-times: ${rows.length} files into guides/testing.md (vitest wall ${s(report.wallMs)} s)${failed.length ? `; kept the earlier time of ${failed.map((f) => f.file).join(', ')}, which failed` : ''}`);
