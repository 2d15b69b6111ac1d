// Each command of the README and the guides marked `<!-- guide-test: starts -->`
// (the sandbox, Prism on the bundles, a webhook receiver) is run by a shell
// in a fresh folder where the package is installed, answers HTTP on its port
// and does what the guide says. Only the port is changed; `npx` finds this
// build, and the files the guide showed before the command (a ```ts block
// opening with `// name.ts`) are there, with the `.js` tsc would emit.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { freePort } from '../../scripts/lib/prism.mjs';
import { serveSandbox } from '../../src/sandbox/server.js';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';
import { untilAnswering } from '../helpers/runtimes-harness.js';
import { writeModule } from '../helpers/typescript-snippets.js';

const BIN = path.join(ROOT, 'generated', 'lib', 'src', 'cli', 'index.js');
const PRISM = path.join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
const DENO = path.join(ROOT, 'node_modules', '@deno', 'linux-x64-glibc', 'deno');
const RECEIVER_KEY = 'sbx_guide_receiver_3c9e1a';

interface Command {
  guide: string;
  line: string;
  /** The files the guide showed before the command. */
  files: Map<string, string>;
}

/** The marked commands of one guide, each with the files shown before it. */
function commandsOf(guide: string): Command[] {
  const text = readFileSync(path.join(ROOT, guide), 'utf8');
  const files = new Map<string, string>();
  const commands: Command[] = [];
  for (const m of text.matchAll(/(<!-- guide-test: starts -->\n)?```(\w+)\n([\s\S]*?)```/g)) {
    const [, marked, lang, body] = m;
    const named = /^\/\/ ([\w.-]+\.ts)\n/.exec(body);
    if (lang === 'ts' && named) files.set(named[1], body);
    if (marked && lang === 'sh') {
      for (const line of body.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#')))
        commands.push({ guide, line, files: new Map(files) });
    }
  }
  return commands;
}

const guides = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'guides'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `guides/${f}`),
];
const commands = guides.flatMap(commandsOf);
const webhooksGuide = readFileSync(path.join(ROOT, 'guides', 'webhooks.md'), 'utf8');
const sendExample = /^npx @verification-service\/contracts webhooks send .*$/m.exec(webhooksGuide)?.[0] ?? '';

const scratch = mkdtempSync(path.join(tmpdir(), 'vc-guide-commands-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A fresh project with the package installed (a link to this build), `npx` and `deno` on the PATH. */
async function freshProject(command: Command): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
  const dir = mkdtempSync(path.join(scratch, 'project-'));
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'partner-project', private: true, type: 'module' }),
  );
  mkdirSync(path.join(dir, 'node_modules', '@verification-service'), { recursive: true });
  symlinkSync(ROOT, path.join(dir, 'node_modules', '@verification-service', 'contracts'), 'dir');
  const bin = path.join(dir, '.bin');
  mkdirSync(bin);
  // npx runs the installed package's bin, and Prism at the version the guide pins (here: the lockfile's).
  writeFileSync(
    path.join(bin, 'npx'),
    `#!/bin/sh
case "$1" in
  @verification-service/contracts) shift; exec "${process.execPath}" "${BIN}" "$@" ;;
  @stoplight/prism-cli@5.14.2) shift; exec "${process.execPath}" "${PRISM}" "$@" ;;
  *) echo "npx $1: not available in this test" >&2; exit 127 ;;
esac
`,
  );
  chmodSync(path.join(bin, 'npx'), 0o755);
  symlinkSync(DENO, path.join(bin, 'deno'));
  symlinkSync(process.execPath, path.join(bin, 'node'));
  for (const [name, source] of command.files) {
    writeFileSync(path.join(dir, name), source);
    await writeModule(dir, name.replace(/\.ts$/, ''), source);
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    DENO_DIR: path.join(dir, '.deno'),
    DENO_NO_UPDATE_CHECK: '1',
  };
  for (const name of ['AUTH_KEY', 'ACCESS_TOKEN', 'PORT', 'SANDBOX_PORT']) delete env[name];
  return { dir, env };
}

/** The command with its port made free: `--port N`, `PORT=N`, or SANDBOX_PORT for a sandbox on its default. */
function onPort(line: string, port: number): { line: string; env: NodeJS.ProcessEnv } {
  const moved = line.replace(/--port \d+/, `--port ${port}`).replace(/\bPORT=\d+/, `PORT=${port}`);
  return { line: moved, env: moved === line ? { SANDBOX_PORT: String(port) } : {} };
}

const stop = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGINT');
  const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
};

describe.each(commands)('$guide: $line', (command) => {
  it('starts in a fresh folder and answers as the guide says', { timeout: HANG_CEILING_MS }, async () => {
    const { dir, env } = await freshProject(command);
    const port = await freePort();
    const { line, env: portEnv } = onPort(command.line, port);
    let output = '';
    // AUTH_KEY as a partner has it after pasting the sandbox's export line (a receiver reads it).
    const child = spawn('/bin/sh', ['-c', line], {
      cwd: dir,
      env: { ...env, ...portEnv, AUTH_KEY: RECEIVER_KEY },
      detached: true,
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    try {
      const url = `http://127.0.0.1:${port}`;
      await untilAnswering(`${url}/`, child, () => output, { method: 'HEAD' });
      if (/@verification-service\/contracts sandbox/.test(line)) {
        await expect.poll(() => output, { timeout: 10_000 }).toContain('Ctrl-C stops it.');
        const printed = /export PARTNER_URL=(\S+) AUTH_KEY=(\S+) V2_URL=(\S+) ACCESS_TOKEN=(\S+)/.exec(output);
        expect(printed, output).not.toBeNull();
        const [, partnerUrl, authKey, v2Url, accessToken] = printed!;
        expect([partnerUrl, v2Url]).toEqual([url, url]);
        const given = /--auth-key (\S+)/.exec(line)?.[1];
        if (given) expect(authKey).toBe(given);
        expect(
          (
            await fetch(`${partnerUrl}/partners`, {
              headers: { 'X-Auth-Key': authKey, 'Content-Type': 'application/json' },
            })
          ).status,
        ).toBe(200);
        expect(
          (await fetch(`${v2Url}/v2/verifications/`, { headers: { Authorization: `Bearer ${accessToken}` } })).status,
        ).toBe(200);
        const state = /--state (\S+)/.exec(line)?.[1];
        if (state) expect(existsSync(path.join(dir, state)), state).toBe(true);
      } else if (/prism-cli.* mock .*v2\.yaml/.test(line)) {
        expect(
          (await fetch(`${url}/v2/verifications/abc`, { headers: { Authorization: 'Bearer any-token' } })).status,
        ).toBe(200);
        // What the guide says of empty query values: Prism lets them through, the sandbox refuses them.
        expect(
          (await fetch(`${url}/v2/verifications/?createdFrom=`, { headers: { Authorization: 'Bearer any-token' } }))
            .status,
        ).toBe(200);
        const sandbox = await serveSandbox({ port: 0, accessToken: 'v2_guide_token' });
        try {
          expect(
            (
              await fetch(`${sandbox.url}/v2/verifications/?createdFrom=`, {
                headers: { Authorization: 'Bearer v2_guide_token' },
              })
            ).status,
          ).toBe(400);
        } finally {
          await sandbox.close();
        }
      } else if (/prism-cli.* mock .*partner\.yaml/.test(line)) {
        expect(
          (await fetch(`${url}/partners`, { headers: { 'X-Auth-Key': 'any-key', 'Content-Type': 'application/json' } }))
            .status,
        ).toBe(200);
      } else {
        // A webhook receiver: the guide's `webhooks send` example, pointed at it, gets 200 for every event.
        // The guide teaches no fixed key: the receiver and the example both read AUTH_KEY.
        expect(line).not.toMatch(/AUTH_KEY=/);
        const send = sendExample.replace('http://127.0.0.1:8080', url);
        const result = await promisify(execFile)('/bin/sh', ['-c', send], {
          cwd: dir,
          env: { ...env, AUTH_KEY: RECEIVER_KEY },
        }).catch((err) => err);
        expect(`${result.stdout}${result.stderr ?? ''}`, output).toMatch(/all 7 delivered\./);
        expect(result.code ?? 0).toBe(0);
      }
    } finally {
      await stop(child);
    }
  });
});
