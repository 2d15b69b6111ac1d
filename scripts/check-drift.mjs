// Fails when generated/ differs from what the sources produce now: rebuilds
// every generated artefact into a scratch folder and compares file by file.
// When this checkout's build record (scripts/lib/build-cache.mjs) shows every
// step's inputs and outputs exactly as after its last successful run, the
// build made generated/ from these sources and nothing touched it since: that
// is the answer, without building again (`--full` rebuilds regardless).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bundle } from './bundle.mjs';
import { compile } from './compile.mjs';
import { docs } from './docs.mjs';
import { samples } from './samples.mjs';
import { types } from './types.mjs';
import { validators } from './validators.mjs';
import { buildSteps } from './build.mjs';
import { BuildCache } from './lib/build-cache.mjs';
import { ROOT } from './lib/paths.mjs';
import { main } from './lib/run.mjs';

/** Whether the build's record vouches for every file of generated/. */
async function recordVouches() {
  const out = path.join(ROOT, 'generated');
  const cache = new BuildCache(out);
  await cache.load();
  const steps = buildSteps(out);
  for (const [name, step] of Object.entries(steps)) {
    if (!(await cache.matches(name, step))) return false;
  }
  // Nothing in generated/ that no step writes.
  const written = new Set(Object.values(steps).flatMap((s) => s.outputs.map((o) => path.relative(out, o))));
  return (await readdir(out)).every((entry) => written.has(entry));
}

async function listFiles(dir, base = dir) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files = await Promise.all(
    entries.map((e) => {
      const full = path.join(dir, e.name);
      return e.isDirectory() ? listFiles(full, base) : [path.relative(base, full)];
    }),
  );
  return files.flat().sort();
}

export async function checkDrift({ full = false } = {}) {
  if (!full && (await recordVouches())) {
    console.log("check-drift: generated/ matches the sources (every step's inputs and outputs as the build left them; --full rebuilds to compare)");
    return;
  }
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'verification-contracts-drift-'));
  try {
    await bundle(scratch);
    // Compile reads the committed types and validators; comparing the fresh
    // ones below covers a stale file, so the compiled output is compared as is.
    await Promise.all([types(scratch), validators(scratch), samples(scratch).then(() => docs(scratch)), compile(scratch)]);
    const committed = path.join(ROOT, 'generated');
    const [want, have] = await Promise.all([listFiles(scratch), listFiles(committed)]);
    const problems = [];
    for (const file of new Set([...want, ...have])) {
      if (!have.includes(file)) problems.push(`missing: generated/${file}`);
      else if (!want.includes(file)) problems.push(`stale (no source produces it): generated/${file}`);
      else {
        const [a, b] = await Promise.all([readFile(path.join(scratch, file)), readFile(path.join(committed, file))]);
        if (!a.equals(b)) problems.push(`out of date: generated/${file}`);
      }
    }
    if (problems.length) {
      throw new Error(
        `generated/ does not match the sources:\n  ${problems.join('\n  ')}\nRun \`npm run build\` and commit generated/.`,
      );
    }
    console.log(`check-drift: generated/ matches the sources (${want.length} files)`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

main(() => checkDrift({ full: process.argv.includes('--full') }));
