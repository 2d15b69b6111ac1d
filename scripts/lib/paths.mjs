import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Every generator writes below one root, `generated/` unless `--out DIR` is
// given; the drift check uses that to rebuild into a scratch folder.
export function outRoot(argv = process.argv.slice(2)) {
  const i = argv.indexOf('--out');
  if (i === -1) return path.join(ROOT, 'generated');
  const dir = argv[i + 1];
  if (!dir) fail('--out needs a folder, for example: --out /tmp/generated');
  return path.resolve(dir);
}

export function fail(message) {
  console.error(`error: ${message}`);
  process.exit(1);
}
