// A vitest reporter that writes each test file's time (import, hooks and
// tests) and the run's wall time to test-results/test-times.json, for
// `npm run test-times`, which prints them slowest first. (vitest's
// JSON report times a file from its first test to its last, without the
// beforeAll where the slow set-up lives.) Only a run of every file of the
// fast tier (the files directly in test/) writes it: a run of one file leaves
// the last full run's times alone.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { ROOT } from '../../scripts/lib/paths.mjs';

export default class FileTimesReporter implements Reporter {
  private start = 0;
  private workers = 0;
  private load = 0;

  onInit(vitest: Vitest) {
    this.workers = vitest.config.maxWorkers;
  }

  onTestRunStart() {
    this.start = performance.now();
    this.load = os.loadavg()[0];
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const run = new Set(modules.map((m) => path.relative(ROOT, m.moduleId)));
    const all = readdirSync(path.join(ROOT, 'test')).filter((f) => /\.test(-d)?\.ts$/.test(f));
    if (!all.every((f) => run.has(`test/${f}`))) return;
    const files = modules.map((m) => {
      const d = m.diagnostic();
      return {
        file: path.relative(ROOT, m.moduleId),
        ms: Math.round(d.setupDuration + d.collectDuration + d.duration),
        tests: [...m.children.allTests()].length,
        state: m.state(),
      };
    });
    const report = {
      wallMs: Math.round(performance.now() - this.start),
      workers: this.workers,
      cpus: os.availableParallelism(),
      loadAtStart: Number(this.load.toFixed(2)),
      files,
    };
    mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
    writeFileSync(path.join(ROOT, 'test-results', 'test-times.json'), `${JSON.stringify(report, null, 2)}\n`);
  }
}
