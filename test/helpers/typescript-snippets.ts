// Runs TypeScript snippets from the docs as a partner would: type-checked
// against this build of the package (as `tsc --init` sets a project up) and executed as ES
// modules. Snippets are written below the package root so that
// `@verification-service/contracts/<entry>` resolves to this build (package
// self-reference), as it would from node_modules.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { ROOT, TSC_NATIVE } from '../../scripts/lib/paths.mjs';

export const run = promisify(execFile);

/** A scratch folder under test-results/ (git-ignored), inside the package. */
export async function scratchDir(name: string): Promise<string> {
  const dir = path.join(ROOT, 'test-results', name);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Compiles a snippet to `<dir>/<name>.js` (an ES module, as a project of type module has it, whose tsc would emit it) and returns the file. */
export async function writeModule(dir: string, name: string, source: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const { code } = await transform(source, { loader: 'ts', format: 'esm', target: 'node20' });
  const file = path.join(dir, `${name}.js`);
  await writeFile(file, code);
  return file;
}

/** Type-checks the snippets together; returns tsc's complaints ('' when there are none). */
export async function typeCheck(dir: string, snippets: Record<string, string>): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const [name, source] of Object.entries(snippets)) {
    await writeFile(path.join(dir, `${name}.ts`), `${source}\nexport {};\n`);
  }
  // What `tsc --init --module nodenext --target es2022 --strict --types node` writes (guides/clients.md), without emit.
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    noUncheckedSideEffectImports: true,
    moduleDetection: 'force',
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  };
  return tscReport(dir, { compilerOptions, include: ['*.ts'] });
}

/** Writes `tsconfig` into `dir` and runs the native compiler on it (same options, a fifth of TypeScript 5's CPU): its complaints, '' when none. */
export async function tscReport(dir: string, tsconfig: object): Promise<string> {
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  try {
    await run(TSC_NATIVE, ['-p', dir]);
    return '';
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return `${stdout}${stderr}` || String(error);
  }
}
