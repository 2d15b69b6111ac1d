// Part 5: what a consumer installs. Tarball size, runtime dependencies, the
// time to type-check test/fixtures/consumer against the packed tarball
// installed in a scratch project (as test/integration/consumer.test.ts does), and what
// the sandbox's two doors weigh bundled.
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { ROOT } from '../paths.mjs';
import { MeasureError, runCommand } from './proc.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

async function npmJson(args, cwd, what) {
  const run = await runCommand(npm, args, { cwd, timeoutMs: 120_000 });
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new MeasureError(
      `${what}: npm ${args.join(' ')} exited ${run.code} without JSON:\n${(run.stderr || run.stdout).trim().slice(-1500)}`,
    );
  }
}

/** Unique name@version of every package below a node of `npm ls --json --all`. */
function packagesBelow(node, seen = new Set()) {
  for (const [name, dep] of Object.entries(node?.dependencies ?? {})) {
    const id = `${name}@${dep.version}`;
    if (seen.has(id)) continue;
    seen.add(id);
    packagesBelow(dep, seen);
  }
  return seen;
}

/**
 * Bytes of a built entry of generated/lib bundled with everything it imports
 * but Node's built-ins (esbuild, minified ESM) and of that gzipped (level 9).
 */
async function bundledWeight(entry, platform) {
  let result;
  try {
    result = await build({
      entryPoints: [path.join(ROOT, entry)],
      absWorkingDir: ROOT,
      bundle: true,
      minify: true,
      format: 'esm',
      platform,
      write: false,
      logLevel: 'silent',
    });
  } catch (err) {
    throw new MeasureError(`${entry} does not bundle for the ${platform} platform (esbuild): ${err.message}`);
  }
  const bytes = result.outputFiles[0].contents;
  return { entry, platform, minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length };
}

export async function benchPackage({ log, typecheckRuns = 2 }) {
  const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
  // The fetch door as a partner's bundler makes it for a browser or a Worker; the node:http door as a Node bundler would.
  log('  esbuild: the sandbox fetch door (browser) and the server door (node), minified, gzipped');
  const doors = {
    fetch: await bundledWeight('generated/lib/src/sandbox/fetch.js', 'browser'),
    server: await bundledWeight('generated/lib/src/sandbox/server.js', 'node'),
  };
  log('  npm pack --dry-run --json');
  const [dry] = await npmJson(['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT, 'tarball size');

  // Runtime dependencies as the repository resolves them.
  const repoTree = await npmJson(['ls', '--omit=dev', '--all', '--json'], ROOT, 'runtime dependencies');
  const repoTotal = packagesBelow(repoTree).size;

  const work = await mkdtemp(path.join(os.tmpdir(), 'vc-bench-consumer-'));
  try {
    log('  npm pack, install into a scratch project');
    const [packed] = await npmJson(
      ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
      ROOT,
      'npm pack',
    );
    const project = path.join(work, 'consumer');
    await mkdir(project);
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    const fixture = path.join(ROOT, 'test', 'fixtures', 'consumer');
    for (const file of ['consumer.ts', 'tsconfig.json'])
      await copyFile(path.join(fixture, file), path.join(project, file));
    const install = await runCommand(
      npm,
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        path.join(work, packed.filename),
        '@types/node@20.19.43',
      ],
      { cwd: project, timeoutMs: 150_000 },
    );
    if (install.code !== 0) {
      throw new MeasureError(
        `npm install of the packed tarball failed (exit ${install.code}); the package could not be measured:\n${install.stderr.trim().slice(-1500)}`,
      );
    }
    const tree = await npmJson(['ls', '--all', '--json'], project, 'installed dependencies');
    const installed = packagesBelow(tree.dependencies?.['@verification-service/contracts'] ?? {});

    log(`  tsc -p <consumer> × ${typecheckRuns}`);
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const runs = [];
    for (let i = 0; i < typecheckRuns; i++) {
      const run = await runCommand(process.execPath, [tsc, '-p', project], { cwd: project, timeoutMs: 120_000 });
      if (run.code !== 0)
        throw new MeasureError(
          `the consumer fixture does not type-check against the packed tarball:\n${run.stdout.trim().slice(-1500)}`,
        );
      runs.push(run.ms);
    }
    return {
      tarball: { size: dry.size, unpackedSize: dry.unpackedSize, files: dry.entryCount ?? dry.files.length },
      dependencies: {
        direct: Object.keys(pkg.dependencies ?? {}).length,
        directNames: Object.keys(pkg.dependencies ?? {}),
        totalInRepo: repoTotal,
        totalInstalled: installed.size,
      },
      installMs: install.ms,
      typecheck: { runsMs: runs, minMs: Math.min(...runs) },
      doors,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
