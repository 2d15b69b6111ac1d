// The README's figures and names, compared with what they measure: the
// packages an install brings (the lockfile), the partner API's operations
// and webhooks (the bundle), the runtimes the webhook helpers are tested in,
// the Node lines (`engines`), the options of the commands it
// shows (each command's --help), and the published reference (package.json's
// homepage, the rendered pages). The wording around them is free.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../scripts/lib/paths.mjs';
import { WEBHOOK_FAULTS } from '../src/sandbox/common/webhook-faults.js';
import { linksOf } from './helpers/markdown-links.js';
import { TESTED_RUNTIMES } from './runtimes/runtimes.js';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
const CLI = path.join(ROOT, 'generated', 'lib', 'src', 'cli', 'index.js');

/** Every package `npm install` of `name` brings, itself included, from the lockfile. */
function tree(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const dep of Object.keys(lock.packages[`node_modules/${name}`]?.dependencies ?? {})) tree(dep, seen);
  return seen;
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

describe('README figures against measurements', () => {
  it('the packages an install brings: openapi-fetch the only runtime dependency, and the count the README gives', () => {
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    expect(manifest.peerDependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
    const installed = [...tree('openapi-fetch')];
    expect(installed).toEqual(['openapi-fetch', 'openapi-typescript-helpers']);
    const stated = /installs (\w+) packages: ([^\n]*)/.exec(README);
    expect(stated, 'README.md says how many packages an install brings').not.toBeNull();
    expect([String(installed.length + 1), NUMBER_WORDS[installed.length + 1]]).toContain(stated![1]);
    for (const name of installed) expect(stated![2]).toContain(name);
  });

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

  it("links the hosted reference (package.json's homepage), shows its pictures from there, and its pages have Try it", () => {
    const home = manifest.homepage as string;
    expect(home).toMatch(/^https:\/\/[^/]+\/.*\/$/);
    expect(linksOf(README)).toContain(home);
    const pictures = [...README.matchAll(/\]\(([^)]+\.(?:jpe?g|png))\)/g)].map((m) => m[1]);
    expect(pictures.length).toBeGreaterThanOrEqual(4);
    for (const picture of pictures) expect(picture.startsWith(`${home}images/`), picture).toBe(true);
    for (const api of ['v2', 'partner', 'sandbox']) {
      const page = readFileSync(path.join(ROOT, 'generated', 'docs', `${api}.html`), 'utf8');
      expect(page, `${api}.html`).toContain('<script id="try-it-buttons">');
    }
  });

  it('the reference is published with the official Pages actions when a release lands, with those pictures', () => {
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
    const assemble = deploy.steps.find((s: { run?: string }) => s.run?.includes('site/images')).run;
    expect(assemble).toContain('cp -r generated/docs/. site/');
    expect(assemble).toContain('cp guides/images/*.jpg site/images/');
    expect(
      deploy.steps.find((s: { uses?: string }) => s.uses?.startsWith('actions/upload-pages-artifact')).with.path,
    ).toBe('site');
  });
});
