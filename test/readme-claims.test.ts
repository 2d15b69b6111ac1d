// The README's figures and names against what they measure: the partner
// bundle, the tested runtimes, `engines`, each command's --help, and the
// published reference. The wording around them is free. Its TypeScript
// type-checks against this build as a partner imports it (as `tsc --init` sets a project up),
// its Worker beside the webhooks guide's handle-webhook.ts it imports.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../scripts/lib/paths.mjs';
import { WEBHOOK_FAULTS } from '../src/sandbox/common/webhook-faults.js';
import { linksOf } from './helpers/markdown-links.js';
import { scratchDir, typeCheck } from './helpers/typescript-snippets.js';
import { TESTED_RUNTIMES } from './runtimes/runtimes.js';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const CLI = path.join(ROOT, 'generated', 'lib', 'src', 'cli', 'index.js');
const pictures = [...README.matchAll(/\]\(([^)]+\.(?:jpe?g|png))\)/g)].map((m) => m[1]);

describe('README figures against measurements', () => {
  it("the partner API's operations, webhooks and header, as the bundle has them", () => {
    const partner = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'openapi', 'partner.json'), 'utf8'));
    const operations = Object.values(partner.paths as Record<string, object>).flatMap((item) =>
      Object.keys(item).filter((k) => ['get', 'put', 'post', 'delete', 'patch'].includes(k)),
    );
    const stated = /(\d+) operations and (\d+) webhooks; `([^`]+)`/.exec(README);
    expect(stated, 'README.md counts the partner operations and webhooks').not.toBeNull();
    expect(stated!.slice(1).map(String)).toEqual([
      String(operations.length),
      String(Object.keys(partner.webhooks).length),
      partner.components.securitySchemes.authKey.name,
    ]);
  });

  it('every runtime the webhook helpers are tested in', () => {
    for (const runtime of TESTED_RUNTIMES) expect(README).toContain(runtime.readme);
  });

  it('every option it shows is one a command of the package lists, and the webhook faults are the ones it knows', () => {
    const commands = ['sandbox', 'conformance', 'webhooks send', 'webhooks verify', 'webhooks check'];
    const usage = commands
      .map((command) => execFileSync(process.execPath, [CLI, ...command.split(' '), '--help'], { encoding: 'utf8' }))
      .join('\n');
    const options = new Set(README.match(/(?<![\w-])--[a-z][a-z-]+/g));
    expect(options.size).toBeGreaterThan(5);
    for (const option of options) expect(usage, `README.md shows ${option}`).toContain(option);
    const faults = /--webhook-faults ([a-z,]+)/.exec(README)![1].split(',');
    expect(faults.sort()).toEqual(Object.keys(WEBHOOK_FAULTS).sort());
  });

  it('the Node lines `engines` supports', () => {
    // `^20.19.0` reads "20.19+"; `^24.0.0`, a whole line, reads "24".
    const ranges = (manifest.engines.node as string)
      .split('||')
      .map((range) => /^\s*\^(\d+)\.(\d+)\.0\s*$/.exec(range));
    expect(ranges.every(Boolean), `engines.node ${manifest.engines.node}: ^X.Y.0 ranges only`).toBe(true);
    expect(ranges.length).toBeGreaterThanOrEqual(2);
    const stated = /^Node (.*) \(`engines`\)/m.exec(README)?.[1] ?? '';
    for (const m of ranges)
      expect(stated).toMatch(m![2] === '0' ? new RegExp(`\\b${m![1]}\\b(?![.+])`) : `${m![1]}.${m![2]}+`);
  });

  it("links the hosted reference (package.json's homepage) and shows its pictures from there", () => {
    const home = manifest.homepage as string;
    expect(home).toMatch(/^https:\/\/[^/]+\/.*\/$/);
    expect(linksOf(README)).toContain(home);
    expect(pictures.length).toBeGreaterThanOrEqual(4);
    for (const picture of pictures) expect(picture.startsWith(`${home}images/`), picture).toBe(true);
  });

  it('the reference is published with the official Pages actions when a release lands: every page of the docs, Try it and those pictures, unchanged', () => {
    const workflow = parse(readFileSync(path.join(ROOT, '.github', 'workflows', 'reference.yml'), 'utf8'));
    expect(workflow.on.push).toEqual({ branches: ['main'], paths: ['package.json'] });
    expect(workflow.on).toHaveProperty('workflow_dispatch');
    // Only a push that moved the version (the release commit) deploys.
    expect(workflow.jobs.release.steps.find((s: { id?: string }) => s.id === 'version').run).toContain(
      `require('./package.json').version`,
    );
    const deploy = workflow.jobs.deploy;
    expect(deploy.if).toBe("needs.release.outputs.released == 'true'");
    expect(deploy.permissions).toEqual({ pages: 'write', 'id-token': 'write' });
    const uses = deploy.steps.map((s: { uses?: string }) => s.uses?.split('@')[0]).filter(Boolean);
    expect(uses).toEqual(expect.arrayContaining(['actions/upload-pages-artifact', 'actions/deploy-pages']));
    expect(
      deploy.steps.find((s: { uses?: string }) => s.uses?.startsWith('actions/upload-pages-artifact')).with.path,
    ).toBe('site');
    // The site step as the workflow runs it, in a scratch folder that sees this checkout's docs and guides.
    const assemble: string = deploy.steps.find((s: { run?: string }) => s.run?.includes('site/')).run;
    const scratch = mkdtempSync(path.join(tmpdir(), 'vc-site-'));
    try {
      for (const folder of ['generated', 'guides']) symlinkSync(path.join(ROOT, folder), path.join(scratch, folder));
      execFileSync('bash', ['-e', '-c', assemble], { cwd: scratch });
      const docs = path.join(ROOT, 'generated', 'docs');
      const copied = [
        ...readdirSync(docs, { recursive: true, encoding: 'utf8' }).map((file) => [path.join(docs, file), file]),
        ...pictures.map((picture) => [
          path.join(ROOT, 'guides', 'images', path.basename(picture)),
          `images/${path.basename(picture)}`,
        ]),
      ].filter(([from]) => statSync(from).isFile());
      expect(copied.map(([, file]) => file)).toEqual(expect.arrayContaining(['partner.html', 'try-it/sandbox.js']));
      for (const [from, file] of copied)
        expect(readFileSync(path.join(scratch, 'site', file)).equals(readFileSync(from)), file).toBe(true);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('README.md TypeScript', () => {
  it('has snippets, and each type-checks strictly against the package', async () => {
    const snippets = [...README.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    const handleWebhook =
      [...readFileSync(path.join(ROOT, 'guides', 'webhooks.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)]
        .map((m) => m[1])
        .find((b) => b.startsWith('// handle-webhook.ts\n')) ?? '';
    expect(snippets.length).toBeGreaterThanOrEqual(2);
    const report = await typeCheck(await scratchDir('readme-snippets'), {
      ...Object.fromEntries(snippets.map((code, i) => [`snippet-${i}`, code])),
      'handle-webhook': handleWebhook,
    });
    expect(report).toBe('');
  });
});
