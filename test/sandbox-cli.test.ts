// `verification-contracts sandbox` (and `npm run sandbox`): starts, prints its
// credentials and URLs, serves, and stops cleanly on Ctrl-C.
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.mjs';

const BIN = path.join(ROOT, 'generated', 'lib', 'src', 'cli', 'index.js');

describe('sandbox command', () => {
  it('prints its URLs and credentials, serves them, and stops on SIGINT', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--auth-key', 'sbx_cli_key', '--access-token', 'v2_cli_token']);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await expect.poll(() => stdout, { timeout: 20_000 }).toMatch(/Ctrl-C stops it/);
    const url = /Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)![1];
    // No warning at start (fastify's FSTDEP022 came from router options given at the top level).
    expect(stderr).toBe('');
    expect(stdout).toContain('X-Auth-Key: sbx_cli_key');
    expect(stdout).toContain('Authorization: Bearer v2_cli_token');
    expect((await fetch(`${url}/partners`, { headers: { 'X-Auth-Key': 'sbx_cli_key' } })).status).toBe(200);
    expect((await fetch(`${url}/v2/verifications/`, { headers: { Authorization: 'Bearer v2_cli_token' } })).status).toBe(200);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stdout).toContain('Sandbox stopped.');
  });

  it('refuses a bad port with exit 2 and a message', async () => {
    const result = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(process.execPath, [BIN, 'sandbox'], { env: { ...process.env, SANDBOX_PORT: 'eighty' } }, (err, _out, stderr) =>
        resolve({ code: Number((err as { code?: number } | null)?.code ?? 0), stderr }),
      ),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('port must be 0 to 65535, not "eighty"');
  });
});
