// The build's record of the lints, kept per API: a step runs only for the
// APIs whose inputs changed, and an API's sources include every folder its
// `$ref`s reach. The lint functions are stand-ins here (what each is handed
// is the point); the real lints run in the build and in `npm test`'s lint.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBuild } from '../scripts/build.mjs';
import { sourceDirsOf } from '../scripts/lib/steps.mjs';
import { APIS } from '../scripts/lib/apis.mjs';

const api = (name: string) => APIS.find((a) => a.name === name)!;

describe('the lints, kept per API', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'vc-build-steps-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  const bundle = (name: string, text: string) => writeFileSync(path.join(out, 'openapi', `${name}.yaml`), text);

  it("a source folder's lint covers the folders its references reach", () => {
    expect(sourceDirsOf(api('v2'))).toEqual(['v2']);
    expect(sourceDirsOf(api('partner'))).toEqual(['partner']);
    // The control API's sources refer to partner and v2 schemas.
    expect(sourceDirsOf(api('sandbox')).sort()).toEqual(['partner', 'sandbox', 'v2']);
  });

  it('lints every API first, none when nothing changed, and only the API whose bundle changed', async () => {
    mkdirSync(path.join(out, 'openapi'));
    for (const { name } of APIS) bundle(name, `openapi: 3.1.0 # ${name}\n`);
    const linted: string[][] = [];
    const lint = async (_out: string, apis: { name: string }[]) => void linted.push(apis.map((a) => a.name));
    const build = await createBuild(out, { force: false });
    await build.step('lint-bundles', lint);
    await build.step('lint-bundles', lint);
    bundle('v2', 'openapi: 3.1.0 # v2, edited\n');
    await build.step('lint-bundles', lint);
    expect(linted).toEqual([APIS.map((a) => a.name), ['v2']]);
    // A failed lint records nothing: the next build lints that API again.
    bundle('partner', 'openapi: 3.1.0 # partner, edited\n');
    await expect(build.step('lint-bundles', async () => Promise.reject(new Error('a lint problem')))).rejects.toThrow(
      'a lint problem',
    );
    await build.step('lint-bundles', lint);
    expect(linted.at(-1)).toEqual(['partner']);
  });
});
