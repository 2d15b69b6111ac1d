// Every bundle's `info.version` is the package's version (P28: the service
// publishes no version, so a bundle's version names the release of these
// API descriptions). The sources carry a placeholder that says so; the bundle
// step writes the version from package.json into Redocly's output.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './paths.mjs';

export const packageVersion = async () => JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')).version;

/**
 * The bundled YAML with `info.version` replaced, the rest byte for byte as
 * Redocly wrote it (so a release changes one line of each bundle).
 */
export function withVersion(yamlText, version) {
  // `info:` at the top level, then its two-space-indented keys (and the
  // deeper lines of its description) up to its own `version:`.
  const stamped = yamlText.replace(/^(info:\n(?:(?: {2}.*)?\n)*? {2}version: ).*$/m, `$1${version}`);
  const written = parse(stamped)?.info?.version;
  if (written !== version) {
    throw new Error(
      `could not write version ${version} into the bundle's info.version (found ${JSON.stringify(written)}); the bundle's info block needs a top-level \`version:\` line`,
    );
  }
  return stamped;
}
