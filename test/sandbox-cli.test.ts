// `verification-contracts sandbox` as a process: its banner, --state, Ctrl-C,
// and as a CI service on every address. How each flag is read: sandbox-options.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers/raw-http.js';
import { CLI_BIN, send, startCommand } from './helpers/served-sandbox.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'vc-sandbox-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('sandbox command', () => {
  it('prints its URLs and credentials, serves them, and stops on SIGINT', async () => {
    const { printed, url, stop } = await startCommand(['--auth-key', 'sbx_cli_key', '--access-token', 'v2_cli_token']);
    // No warning at start (fastify's FSTDEP022 came from router options given at the top level).
    expect(printed.stderr).toBe('');
    expect(printed.stdout).toContain('X-Auth-Key: sbx_cli_key');
    expect(printed.stdout).toContain('Authorization: Bearer v2_cli_token');
    expect((await send(url, 'sbx_cli_key', 'GET', '/partners')).status).toBe(200);
    // The line to paste: each client's base URL (v2's without /v2: its paths start with /v2).
    expect(printed.stdout).toContain(
      `  export PARTNER_URL=${url} AUTH_KEY=sbx_cli_key V2_URL=${url} ACCESS_TOKEN=v2_cli_token SANDBOX_URL=${url}\n`,
    );
    expect(printed.stdout).not.toMatch(/V2_URL=\S*\/v2/);
    const v2 = await fetch(`${url}/v2/verifications/`, { headers: { Authorization: 'Bearer v2_cli_token' } });
    expect(v2.status).toBe(200);
    expect(await stop()).toBe(0);
    expect(printed.stdout).toContain('Sandbox stopped.');
  });

  it.each([
    ['a bad SANDBOX_PORT', [], { SANDBOX_PORT: 'eighty' }, 'SANDBOX_PORT'],
    ['a --delivery-timeout of 0 seconds', ['--port', '0', '--delivery-timeout', '0'], {}, '--delivery-timeout'],
    ['an unknown --webhook-faults name', ['--port', '0', '--webhook-faults', 'duplicate,late'], {}, '--webhook-faults'],
    ['an allowed name with a port', ['--port', '0', '--allowed-hosts', 'sandbox:4020'], {}, '--allowed-hosts'],
  ])('refuses %s with exit 2 and a message naming it and --help', async (_, args, env, named) => {
    const result = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [CLI_BIN, 'sandbox', ...args],
        { env: { ...process.env, ...env } },
        (err, _out, stderr) => resolve({ code: Number((err as { code?: number } | null)?.code ?? 0), stderr }),
      ),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^error: ${named}\\b.*; see verification-contracts sandbox --help\\n$`));
  });

  it('says that PORT is not read, and names --port and SANDBOX_PORT', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '8080' };
    delete env.SANDBOX_PORT;
    const child = spawn(process.execPath, [CLI_BIN, 'sandbox'], { env });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await expect.poll(() => stderr, { timeout: 20_000 }).toMatch(/warning: PORT/);
      expect(stderr.split('\n')[0]).toMatch(/^warning: PORT=8080 .* 4020; .* --port 8080 .* SANDBOX_PORT=8080\.$/);
    } finally {
      child.kill('SIGINT');
      await exited;
    }
  });

  it('--state makes the missing folders of its file, as the state guide writes it; an --auth-key other than the one it holds is told which key is in force', async () => {
    const saved = ['--state', '.sandbox/state.json', '--auth-key', 'sbx_first_key', '--access-token', 'v2_first_token'];
    const first = await startCommand(saved, { cwd: scratch });
    expect(first.printed.stderr).toBe('');
    expect(first.printed.stdout).toContain('state         .sandbox/state.json');
    expect(existsSync(path.join(scratch, '.sandbox', 'state.json'))).toBe(true);
    expect(await first.stop()).toBe(0);
    const again = await startCommand(['--state', '.sandbox/state.json', '--auth-key', 'sbx_second_key'], {
      cwd: scratch,
    });
    try {
      expect(again.printed.stdout).toContain('X-Auth-Key: sbx_first_key');
      expect(again.printed.stderr.trim()).toBe(
        'warning: --auth-key sbx_second_key is not in force: the state file .sandbox/state.json keeps its own credentials, and sbx_first_key is in force. Use that, or delete .sandbox/state.json to start empty with --auth-key sbx_second_key.',
      );
      expect((await send(again.url, 'sbx_first_key', 'GET', '/partners')).status).toBe(200);
    } finally {
      expect(await again.stop()).toBe(0);
    }
    // The same key as saved, or none: nothing to warn about.
    const same = await startCommand(saved, { cwd: scratch });
    expect(same.printed.stderr).toBe('');
    expect(await same.stop()).toBe(0);
  });

  it('prints an export line with the new key once POST /auth-keys rotated it, which the partner API then accepts', async () => {
    const run = await startCommand(['--auth-key', 'sbx_before_rotation']);
    try {
      const rotated = await send(run.url, 'sbx_before_rotation', 'POST', '/auth-keys', {});
      expect(rotated.status).toBe(201);
      const key: string = rotated.body.authKeys.find((k: { active: boolean }) => k.active).key;
      expect(key).not.toBe('sbx_before_rotation');
      // The line a partner pastes, as at start, now with the key in force.
      await expect.poll(() => run.printed.stdout).toContain(`  export PARTNER_URL=${run.url} AUTH_KEY=${key} `);
      expect((await send(run.url, key, 'GET', '/partners')).status).toBe(200);
    } finally {
      expect(await run.stop()).toBe(0);
    }
  });
});

/** GET `path` from 127.0.0.1:`port` under the Host `host` (fetch sets Host itself). */
const getAs = (port: number, host: string, path: string) => rawRequest(port, [`GET ${path} HTTP/1.1`, `Host: ${host}`]);

describe('sandbox as a CI service (--host, --allowed-hosts, SANDBOX_ALLOWED_HOSTS)', () => {
  it.for([
    ['the flag', ['--host', '0.0.0.0', '--allowed-hosts', 'sandbox.test'], {}],
    ['the variable', ['--host', '0.0.0.0'], { SANDBOX_ALLOWED_HOSTS: 'sandbox.test' }],
  ] as const)(
    'on every address, answers the name allowed by %s and refuses another with 403 naming the option',
    async ([, args, env]) => {
      const { printed, stop } = await startCommand([...args], { env: { ...process.env, ...env } });
      try {
        // Its verification pages carry the allowed name, which other machines call it by.
        const port = Number(/Sandbox listening on http:\/\/sandbox\.test:(\d+)/.exec(printed.stdout)?.[1]);
        expect(port, printed.stdout + printed.stderr).toBeGreaterThan(0);
        expect(printed.stdout).toContain(
          `host check    listening on 0.0.0.0; answers Host localhost, 127.0.0.1 or [::1] with port ${port}, and sandbox.test on any port`,
        );
        expect((await getAs(port, `sandbox.test:${port}`, '/_sandbox/credentials')).status).toBe(200);
        // A port map or a proxy in front may name another port.
        expect((await getAs(port, 'sandbox.test', '/_sandbox/credentials')).status).toBe(200);
        const other = await getAs(port, `other.test:${port}`, '/_sandbox/credentials');
        expect(other.status).toBe(403);
        expect(JSON.parse(other.body).message).toContain(
          'start the sandbox with --allowed-hosts other.test (or SANDBOX_ALLOWED_HOSTS, or allowedHosts of startSandbox)',
        );
        expect(other.body).not.toMatch(/v2_[0-9a-f]/);
      } finally {
        expect(await stop()).toBe(0);
      }
    },
  );

  it("on every address without allowed names, still answers only this machine's names, and says so", async () => {
    const { printed, url, stop } = await startCommand(['--host', '0.0.0.0']);
    try {
      const port = Number(new URL(url).port);
      expect(printed.stdout).toContain(`answers Host localhost, 127.0.0.1 or [::1] with port ${port} only`);
      expect((await getAs(port, `localhost:${port}`, '/_sandbox/credentials')).status).toBe(200);
      expect((await getAs(port, `sandbox.test:${port}`, '/_sandbox/credentials')).status).toBe(403);
    } finally {
      expect(await stop()).toBe(0);
    }
  });
});
