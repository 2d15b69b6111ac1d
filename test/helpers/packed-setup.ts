// Global setup: a scratch folder for the run's one packed-and-installed copy
// of the package (made on first use by sharedInstall in packed-package.ts, so
// a run that needs none packs nothing), removed when the run ends.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    packedPackageDir: string;
  }
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vc-packed-'));
  project.provide('packedPackageDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
