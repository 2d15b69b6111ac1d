// The breaking-change gate on its corpus (test/fixtures/diff-mutations.ts):
// each mutation gets the verdict written beside it, reported where it reaches.
import { describe, expect, it } from 'vitest';
import { diffDocuments, operationsOf } from '../scripts/lib/contract-diff.mjs';
import { snapshotBundle } from './fixtures/bundles.js';
import { KEYWORD_CHANGES } from './fixtures/diff-keywords.js';
import { MUTATIONS, type Mutation } from './fixtures/diff-mutations.js';

/** The gate's verdict on one mutation, with what it reported. */
function judge(m: Mutation) {
  const base = snapshotBundle(m.api);
  m.prepare?.(base);
  const head = structuredClone(base);
  m.mutate(head);
  const result = diffDocuments(base, head);
  const verdict = (['breaking', 'review', 'deprecated'] as const).find((v) => result[v].length) ?? 'harmless';
  return { base, head, result, verdict };
}

describe.each(MUTATIONS.map((m) => [m.name, m] as const))('%s', (_name, m) => {
  it(`is ${m.verdict}: ${m.reason}`, () => {
    const { base, head, result, verdict } = judge(m);
    // A mutation that changes nothing would pass as harmless without testing anything.
    expect(JSON.stringify(head), 'the mutation changes the document').not.toBe(JSON.stringify(base));
    expect(verdict, JSON.stringify(result, null, 2)).toBe(m.verdict);
    if (m.reaches !== undefined) {
      const list =
        m.verdict === 'breaking' ? result.breaking : m.verdict === 'deprecated' ? result.deprecated : result.review;
      const locations = [...new Set(list.map((c) => c.location))].sort();
      if (Array.isArray(m.reaches)) for (const location of m.reaches) expect(locations, location).toContain(location);
      else {
        const every = operationsOf(head).filter((o) => Boolean(o.isWebhook) === (m.reaches === 'every webhook'));
        expect(every.length).toBeGreaterThan(1);
        expect(locations).toEqual(every.map((o) => o.location).sort());
      }
    }
  });
});

describe('no keyword passes unseen: each one that narrows a request (or an answer) is breaking or to review', () => {
  it.each(KEYWORD_CHANGES)('%s', (keyword, mutate) => {
    const { base, head, result, verdict } = judge({
      name: keyword,
      api: 'partner',
      verdict: 'breaking',
      reason: 'narrows',
      mutate,
    });
    expect(JSON.stringify(head), 'the change changes the document').not.toBe(JSON.stringify(base));
    expect(verdict, JSON.stringify(result, null, 2)).not.toBe('harmless');
  });
});
