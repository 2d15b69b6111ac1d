// Part: `verification-contracts conformance` against the sandbox, both run as
// a user would run them (the compiled CLI, two processes): the wall time of
// 1,000 generated requests (plus discovery, the 401 checks and, for the
// partner API, the workflows), against the target of under 30 s.
import { ROOT } from '../paths.mjs';
import { freePort } from '../prism.mjs';
import { MeasureError, builtFile, runCommand, spawnServer } from './proc.mjs';

const KEY = 'sbx_bench_conformance_key';
const TOKEN = 'v2_bench_conformance_token';

export async function benchConformance({ log, requests = 1000 }) {
  const cli = builtFile(ROOT, 'src', 'cli', 'index.js');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const sandbox = await spawnServer(
    process.execPath,
    [cli, 'sandbox', '--port', String(port), '--auth-key', KEY, '--access-token', TOKEN],
    { port, cwd: ROOT, name: 'sandbox' },
  );
  const runs = {};
  try {
    const seeded = await fetch(`${url}/_sandbox/seed`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    if (seeded.status !== 200) throw new MeasureError(`POST /_sandbox/seed answered ${seeded.status}`);
    const cases = {
      partner: ['--api', 'partner', '--auth-key', KEY, '--allow-writes'],
      v2: ['--api', 'v2', '--access-token', TOKEN],
    };
    for (const [name, args] of Object.entries(cases)) {
      const argv = [
        cli,
        'conformance',
        ...args,
        '--base-url',
        url,
        '--seed',
        '1',
        '--requests',
        String(requests),
        '--max-requests',
        String(requests * 2),
        '--rate',
        '0',
        '--json',
      ];
      const result = await runCommand(process.execPath, argv, { cwd: ROOT });
      if (result.code !== 0)
        throw new MeasureError(
          `conformance --api ${name} exited ${result.code}:\n${result.stdout.slice(-2000)}${result.stderr.slice(-2000)}`,
        );
      const report = JSON.parse(result.stdout);
      runs[name] = {
        ms: result.ms,
        requests: report.requests,
        violations: report.violations.length,
        workflows: report.workflows.filter((w) => w.status === 'passed').length,
      };
      log(
        `  ${name}: ${report.requests} requests in all in ${(result.ms / 1000).toFixed(2)} s, ${report.violations.length} violations`,
      );
    }
  } finally {
    await sandbox.stop();
  }
  return { requests, runs };
}
