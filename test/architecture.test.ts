// Each folder of src/ has a README saying its room and, on a "May import:"
// line, what its modules may import (a folder without one fails): every
// import of every module is held to it, so an arrow against the layers
// fails here rather than in a review. And git tracks nothing .gitignore
// names; no test file changes what the next one in its process sees.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

function foldersUnder(dir: string): string[] {
  const subs = readdirSync(dir).filter((n) => statSync(path.join(dir, n)).isDirectory());
  return [dir, ...subs.flatMap((n) => foldersUnder(path.join(dir, n)))];
}

const SRC = path.join(ROOT, 'src');
// src/ itself counts: its README is the map, and its files (the entry points) have a line like any folder's.
const FOLDERS = foldersUnder(SRC);
const modulesOf = (folder: string) => readdirSync(folder).filter((n) => n.endsWith('.ts'));

/** The folder's "May import:" line: project paths (folders or files) its modules may import, besides their own folder. */
function allowedBy(folder: string): string[] {
  if (!existsSync(path.join(folder, 'README.md')))
    throw new Error(`${rel(folder)} has no README.md; add one saying its room and what its modules may import`);
  const readme = readFileSync(path.join(folder, 'README.md'), 'utf8');
  const line = /^May import: (.*)$/m.exec(readme)?.[1];
  if (line === undefined)
    throw new Error(`${rel(folder)}/README.md has no "May import:" line; add one listing what its modules may import`);
  return [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
}

const IMPORT = /(?:^|[;\s])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The project files a module imports (relative specifiers), as repository paths with .ts for .js. */
function projectImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)]
    .map((m) => m[1] ?? m[2])
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => rel(path.resolve(path.dirname(file), spec)).replace(/^(src\/.*)\.js$/, '$1.ts'));
}

const within = (target: string, allowed: string) => target === allowed || target.startsWith(`${allowed}/`);

describe('architecture of src/', () => {
  it.each(FOLDERS.map((d) => [rel(d), d]))('%s imports only what its README allows', (_name, folder) => {
    const own = rel(folder);
    const modules = modulesOf(folder);
    // A folder's modules may import each other; src/'s own files are its modules, not everything below it.
    const allowed = [...(folder === SRC ? modules.map((n) => `src/${n}`) : [own]), ...allowedBy(folder)];
    for (const listed of allowed)
      expect(existsSync(path.join(ROOT, listed)), `${own}/README.md lists ${listed}, which does not exist`).toBe(true);
    const arrows = modules.flatMap((name) =>
      projectImports(path.join(folder, name)).map((target) => `${own}/${name} → ${target}`),
    );
    const against = arrows.filter((arrow) => !allowed.some((a) => within(arrow.split(' → ')[1], a)));
    expect(
      against,
      `imports that ${own}/README.md does not allow; move the code or change the layering on purpose`,
    ).toEqual([]);
  });

  it('the conformance runner imports nothing of the sandbox, directly or through another module', () => {
    const seen = new Set<string>();
    const queue = readdirSync(path.join(ROOT, 'src/conformance'))
      .filter((n) => n.endsWith('.ts'))
      .map((n) => `src/conformance/${n}`);
    while (queue.length) {
      const file = queue.pop()!;
      if (seen.has(file) || !file.startsWith('src/')) continue;
      seen.add(file);
      queue.push(...projectImports(path.join(ROOT, file)));
    }
    expect(seen.size).toBeGreaterThan(8);
    expect([...seen].filter((f) => f.startsWith('src/sandbox/'))).toEqual([]);
    expect(seen.has('src/contract/routes.ts')).toBe(true);
  });
});

describe('repository hygiene', () => {
  it('tracks no file that .gitignore names (profiler logs, heap snapshots, packed tarballs)', () => {
    const ignored = execFileSync('git', ['ls-files', '-z', '--cached', '--ignored', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\0')
      .filter(Boolean);
    expect(ignored).toEqual([]);
    const check = execFileSync('git', ['check-ignore', '--no-index', '--stdin', '-v', '-n'], {
      cwd: ROOT,
      encoding: 'utf8',
      input: 'isolate-0x1-2-v8.log\nCPU.20261123.cpuprofile\nHeap.heapprofile\nx.heapsnapshot\n',
    });
    expect(check.split('\n').filter((l) => l.startsWith('::'))).toEqual([]);
  });
});

// The test files share workers and their module cache (isolate: false, T2), so
// none may change what the next file in the same process would see.
describe('test files run side by side in one process', () => {
  const PROCESS_WIDE = [
    [/process\.env(\.\w+|\[[^\]]+\])\s*=[^=]/, 'assigns an environment variable'],
    [/\bdelete process\.env/, 'deletes an environment variable'],
    [/^\s*globalThis\.\w+\s*=[^=]/m, 'replaces a global'],
    [/\bprocess\.chdir\(/, 'changes the working folder'],
    [
      /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(/,
      'mocks a module, a global, the environment or the clock',
    ],
  ] as const;
  const testDir = path.join(ROOT, 'test');
  const sources = [
    ...readdirSync(testDir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(testDir, f)),
    ...readdirSync(path.join(testDir, 'helpers')).map((f) => path.join(testDir, 'helpers', f)),
    // The integration tier shares one module cache per worker too.
    ...readdirSync(path.join(testDir, 'integration'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(testDir, 'integration', f)),
  ];
  /** The code outside strings and template literals: a test may write such code into a file another process runs. */
  const outsideTemplates = (text: string) =>
    text
      .replace(/`(?:\\[\s\S]|[^`\\])*`/g, '``')
      .replace(/'(?:\\.|[^'\\\n])*'/g, "''")
      .replace(/"(?:\\.|[^"\\\n])*"/g, '""');

  it.each(PROCESS_WIDE.map(([pattern, what]) => [what, pattern] as const))(
    'no test file or helper %s',
    (_what, pattern) => {
      const offenders = sources.filter((file) => pattern.test(outsideTemplates(readFileSync(file, 'utf8'))));
      expect(offenders.map((f) => path.relative(ROOT, f))).toEqual([]);
    },
  );

  it('the rule sees such code, and not the same code inside a template written for another process', () => {
    expect(PROCESS_WIDE[0][0].test(outsideTemplates('process.env.CI = `true`;'))).toBe(true);
    expect(PROCESS_WIDE[2][0].test(outsideTemplates('globalThis.fetch = async () => {};'))).toBe(true);
    expect(
      PROCESS_WIDE[2][0].test(outsideTemplates('const RECORDER = `\nglobalThis.fetch = async () => {};\n`;')),
    ).toBe(false);
  });
});
