// The per-file times table of guides/testing.md: its markers, one row's
// format, and reading it back. `npm run test-times` writes it;
// test/helpers/slowest-first.ts starts the slowest files first by it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.mjs';

export const TIMES_GUIDE = path.join(ROOT, 'guides', 'testing.md');
export const TIMES_START = '<!-- test-times:start (npm run test-times writes this table) -->';
export const TIMES_END = '<!-- test-times:end -->';

/** One row of the table: a file, its number of tests and its seconds. */
export const timesRow = (file, tests, seconds) => `| \`${file}\` | ${tests} | ${seconds.toFixed(1)} |`;

/** Seconds and tests per test file (`test/x.test.ts`) as the table records them. */
export function recordedTimes(guide = readFileSync(TIMES_GUIDE, 'utf8')) {
  return new Map([...guide.matchAll(/^\| `(test\/[^`]+)` \| (\d+) \| ([\d.]+) \|$/gm)].map((m) => [m[1], { tests: Number(m[2]), seconds: Number(m[3]) }]));
}

/** Seconds per test file as the table records them. */
export function recordedSeconds(guide) {
  return new Map([...recordedTimes(guide)].map(([file, { seconds }]) => [file, seconds]));
}
