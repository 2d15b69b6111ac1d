// The order test files start in: the slowest first, by the per-file times
// guides/testing.md records (`npm run test-times`). vitest's own order needs
// its results cache, which a fresh clone (CI) lacks; it then starts the
// largest files first, and a short file with a long run (the dev loop, 30 s)
// could start last and hold the whole run open. Files the table does not
// list yet start first, as vitest starts unknown files.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { ROOT } from '../../scripts/lib/paths.mjs';

/** Seconds per test file (`test/x.test.ts`) from the guide's table. */
export function recordedSeconds(guide = readFileSync(path.join(ROOT, 'guides', 'testing.md'), 'utf8')): Map<string, number> {
  return new Map([...guide.matchAll(/^\| `(test\/[^`]+)` \| \d+ \| ([\d.]+) \|$/gm)].map((m) => [m[1], Number(m[2])]));
}

export default class SlowestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = recordedSeconds();
    const key = (spec: TestSpecification) => seconds.get(path.relative(ROOT, spec.moduleId).split(path.sep).join('/')) ?? Infinity;
    return [...files].sort((a, b) => key(b) - key(a));
  }
}
