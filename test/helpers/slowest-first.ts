// The order test files start in: the slowest first, by the per-file times
// guides/testing.md records (`npm run test-times`). vitest's own order needs
// its results cache, which a fresh clone (CI) lacks; it then starts the
// largest files first, and a short file with a long run (the dev loop, 30 s)
// could start last and hold the whole run open. Files the table does not
// list yet start first, as vitest starts unknown files.
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { recordedSeconds } from '../../scripts/lib/test-times.mjs';

export default class SlowestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = recordedSeconds();
    const key = (spec: TestSpecification) => seconds.get(path.relative(ROOT, spec.moduleId).split(path.sep).join('/')) ?? Infinity;
    return [...files].sort((a, b) => key(b) - key(a));
  }
}
