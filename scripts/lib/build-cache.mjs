// Lets `npm run build` skip a step whose inputs and outputs are what they were
// after its last successful run, so a rebuild with nothing changed is quick.
// The record lives under node_modules/.cache, per output folder.
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from './paths.mjs';

async function filesUnder(entry) {
  const info = await stat(entry).catch(() => null);
  if (!info) return [];
  if (!info.isDirectory()) return [entry];
  const children = await readdir(entry);
  return (await Promise.all(children.map((c) => filesUnder(path.join(entry, c))))).flat();
}

/** One hash over the names and contents of every file below the given paths. */
async function hashPaths(paths) {
  const files = (await Promise.all(paths.map(filesUnder))).flat().sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash
      .update(path.relative(ROOT, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  }
  return `${files.length}:${hash.digest('hex')}`;
}

export class BuildCache {
  constructor(out, { force = false } = {}) {
    this.force = force;
    const key = createHash('sha256').update(path.resolve(out)).digest('hex').slice(0, 12);
    this.file = path.join(ROOT, 'node_modules', '.cache', 'verification-contracts', `build-${key}.json`);
    this.records = {};
  }

  async load() {
    this.records = JSON.parse(await readFile(this.file, 'utf8').catch(() => '{}'));
  }

  /**
   * Runs `fn` unless the step's inputs and outputs hash as they did after its
   * last success. Returns true when it ran.
   */
  async run(name, { inputs, outputs }, fn) {
    const before = await this.unchanged(name, { inputs, outputs });
    if (before === true) return false;
    await fn();
    await this.passed([[name, before]], outputs);
    return true;
  }

  /**
   * True when the step named passed last on these inputs and outputs, else
   * the hashes to record with `passed` once it has run.
   */
  async unchanged(name, { inputs, outputs }) {
    const before = { inputs: await hashPaths(inputs), outputs: await hashPaths(outputs) };
    const last = this.records[name];
    return !this.force && last && last.inputs === before.inputs && last.outputs === before.outputs ? true : before;
  }

  /** Records steps as passed on the inputs `unchanged` hashed before they ran. */
  async passed(ran, outputs) {
    const after = await hashPaths(outputs);
    for (const [name, before] of ran) this.records[name] = { inputs: before.inputs, outputs: after };
    await mkdir(path.dirname(this.file), { recursive: true });
    await writeFile(this.file, JSON.stringify(this.records, null, 2));
  }
}
