// The breaking-change gate on its corpus (test/fixtures/diff-mutations.ts):
// each mutation of a real bundle gets the verdict written beside it, and a
// breaking one is reported at every operation and webhook it reaches.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffDocuments } from '../scripts/lib/contract-diff.mjs';
import { ROOT } from '../scripts/lib/paths.mjs';
import { MUTATIONS, type Mutation } from './fixtures/diff-mutations.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
type Change = { location: string; kind: string; detail: string; about: string };

const bundles = new Map<string, Json>();
const bundle = (api: string): Json => {
  if (!bundles.has(api)) bundles.set(api, JSON.parse(readFileSync(path.join(ROOT, 'generated', 'openapi', `${api}.json`), 'utf8')));
  return bundles.get(api);
};

/** The gate's verdict on one mutation, with what it reported. */
export function judge(m: Mutation) {
  const base = structuredClone(bundle(m.api));
  m.prepare?.(base);
  const head = structuredClone(base);
  m.mutate(head);
  const result = diffDocuments(base, head) as { breaking: Change[]; review: Change[]; nonBreaking: Change[] };
  const verdict = result.breaking.length ? 'breaking' : result.review.length ? 'review' : 'harmless';
  return { base, head, result, verdict };
}

describe('the corpus', () => {
  it('has at least 60 mutations, with every verdict, each named once and with a reason', () => {
    expect(MUTATIONS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(MUTATIONS.map((m) => m.name)).size).toBe(MUTATIONS.length);
    for (const verdict of ['breaking', 'harmless', 'review']) expect(MUTATIONS.filter((m) => m.verdict === verdict).length).toBeGreaterThan(5);
    for (const m of MUTATIONS) expect(m.reason.length, m.name).toBeGreaterThan(3);
  });
});

describe.each(MUTATIONS.map((m) => [m.name, m] as const))('%s', (_name, m) => {
  it(`is ${m.verdict}: ${m.reason}`, () => {
    const { base, head, result, verdict } = judge(m);
    // A mutation that changes nothing would pass as harmless without testing anything.
    expect(JSON.stringify(head), 'the mutation changes the document').not.toBe(JSON.stringify(base));
    expect(verdict, JSON.stringify(result, null, 2)).toBe(m.verdict);
    if (m.reaches !== undefined) {
      const list = m.verdict === 'breaking' ? result.breaking : result.review;
      const locations = new Set(list.map((c) => c.location));
      if (typeof m.reaches === 'number') expect(locations.size).toBe(m.reaches);
      else for (const location of m.reaches) expect(locations, location).toContain(location);
    }
  });
});
