// The README's claims about dependencies, runtimes, the APIs' size, Node
// versions, the sandbox's options and the reference, checked against package.json, the lockfile,
// the runtimes the tests run the webhooks in, .ci/run and the bundles. Each
// check finds the README's sentence by what it is about and pins the claim in
// it (a figure, a name, a command, a link), not its wording: a sentence may
// be rewritten freely as long as what it states stays true.
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

/** The sentences of a Markdown page outside code blocks; a table row counts as one. */
function sentencesOf(markdown: string): string[] {
  return markdown
    .replace(/^```[\s\S]*?^```/gm, '\n')
    .split(/\n\s*\n|\n(?=\|)|(?<=\|)\n/)
    .flatMap((block) =>
      block
        .replace(/\s+/g, ' ')
        .trim()
        .split(/(?<=[.!?])\s+/),
    )
    .filter(Boolean);
}

const SENTENCES = sentencesOf(README);

/**
 * The one README sentence that mentions every locator: what the claim is
 * about (a name, a command, a file). Fails with what to restore when none does.
 */
function sentenceAbout(...locators: (string | RegExp)[]): string {
  const has = (s: string, l: string | RegExp) => (typeof l === 'string' ? s.includes(l) : l.test(s));
  const found = SENTENCES.filter((s) => locators.every((l) => has(s, l)));
  expect(
    found.length,
    `README.md has no sentence mentioning ${locators.map(String).join(' and ')}; the claim it made is gone`,
  ).toBeGreaterThanOrEqual(1);
  return found.join(' ');
}

/** A sentence states each claim: every figure, name or command listed. */
function states(sentence: string, ...claims: (string | RegExp)[]) {
  for (const claim of claims) {
    const message = `README.md should state ${claim} in: ${sentence}`;
    if (typeof claim === 'string') expect(sentence, message).toContain(claim);
    else expect(sentence, message).toMatch(claim);
  }
}

/** Every package `npm install` of `name` brings, itself included, from the lockfile. */
function tree(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const dep of Object.keys(lock.packages[`node_modules/${name}`]?.dependencies ?? {})) tree(dep, seen);
  return seen;
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
/** A count as the README may write it: in digits, or in words up to ten. */
const count = (n: number) => new RegExp(`\\b(${n}${NUMBER_WORDS[n] ? `|${NUMBER_WORDS[n]}` : ''})\\b`, 'i');

describe('README claims', () => {
  it('the sentences are found as a reader reads them (the splitter itself)', () => {
    const page =
      'Node 20.19+ or 24. Second `a.b` one!\n\n```sh\nnpm test. Not prose\n```\n| A | B |\n|---|---|\n| 18 operations | x |\nLast\nline.';
    expect(sentencesOf(page)).toEqual([
      'Node 20.19+ or 24.',
      'Second `a.b` one!',
      '| A | B |',
      '|---|---|',
      '| 18 operations | x |',
      'Last line.',
    ]);
  });

  it("names openapi-fetch as the package's only runtime dependency", () => {
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    expect(manifest.peerDependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
    states(sentenceAbout(/runtime dependenc/i), '`openapi-fetch`');
  });

  it('counts and names the packages `npm install @verification-service/contracts` installs', () => {
    const installed = [...tree('openapi-fetch')];
    expect(installed).toEqual(['openapi-fetch', 'openapi-typescript-helpers']);
    const sentence = sentenceAbout('`npm install @verification-service/contracts`', /\binstalls\b/);
    expect(sentence, 'the number of packages installed, the package itself included').toMatch(
      count(installed.length + 1),
    );
    states(sentence, ...installed);
  });

  it('names every runtime the webhook helpers are tested in', () => {
    const sentence = sentenceAbout('`@verification-service/contracts/webhooks`', TESTED_RUNTIMES[0].readme);
    states(sentence, ...TESTED_RUNTIMES.map((r) => r.readme));
  });

  it('counts the partner operations and webhooks as the bundle has them, and names its header', () => {
    const partner = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'openapi', 'partner.json'), 'utf8'));
    const operations = Object.values(partner.paths as Record<string, object>).flatMap((item) =>
      Object.keys(item).filter((k) => ['get', 'put', 'post', 'delete', 'patch'].includes(k)),
    );
    const row = sentenceAbout('`openapi/partner/`');
    states(
      row,
      `${operations.length} operations`,
      `${Object.keys(partner.webhooks).length} webhooks`,
      `\`${partner.components.securitySchemes.authKey.name}\``,
    );
  });

  it("links the hosted reference, package.json's homepage, and shows its pictures from there", () => {
    const home = manifest.homepage as string;
    expect(home).toMatch(/^https:\/\/[^/]+\/.*\/$/);
    expect(linksOf(README)).toContain(home);
    const pictures = [...README.matchAll(/\]\(([^)]+\.(?:jpe?g|png))\)/g)].map((m) => m[1]);
    expect(pictures.length).toBeGreaterThanOrEqual(4);
    for (const picture of pictures) expect(picture.startsWith(`${home}images/`), picture).toBe(true);
  });

  it("says the reference's operations have Try it, as every rendered API page carries it", () => {
    expect(SENTENCES.some((s) => s.includes('Try it'))).toBe(true);
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

  it('names only options the sandbox command has, and only webhook faults it knows', () => {
    const sentence = sentenceAbout('--webhook-url', '--webhook-faults');
    const usage = execFileSync(
      process.execPath,
      [path.join(ROOT, 'generated', 'lib', 'src', 'cli', 'index.js'), 'sandbox', '--help'],
      { encoding: 'utf8' },
    );
    for (const flag of sentence.match(/--[a-z][a-z-]+/g) ?? [])
      expect(usage, `README.md names ${flag}, which sandbox --help does not list`).toContain(flag);
    const faults = /--webhook-faults ([a-z,]+)/.exec(sentence)![1].split(',');
    expect(faults.sort()).toEqual(Object.keys(WEBHOOK_FAULTS).sort());
  });

  it('names the Node lines `engines` supports', () => {
    // `^20.19.0` reads "20.19+"; `^24.0.0`, a whole line, reads "24".
    const ranges = (manifest.engines.node as string)
      .split('||')
      .map((range) => /^\s*\^(\d+)\.(\d+)\.0\s*$/.exec(range));
    expect(
      ranges.every(Boolean),
      `engines.node ${manifest.engines.node}: the README's wording is derived from ^X.Y.0 ranges only`,
    ).toBe(true);
    const lines = ranges.map((m) => ({
      major: m![1],
      claim: m![2] === '0' ? new RegExp(`\\b${m![1]}\\b(?![.+])`) : `${m![1]}.${m![2]}+`,
    }));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    states(sentenceAbout('`engines`'), ...lines.map((l) => l.claim));
  });
});
