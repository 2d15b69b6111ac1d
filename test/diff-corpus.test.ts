// The breaking-change gate on its corpus (test/fixtures/diff-mutations.ts):
// each mutation of a snapshot of the bundles (test/fixtures/bundles/) gets
// the verdict written beside it, and a breaking one (or a deprecation) is
// reported at every operation and webhook it reaches.
import { describe, expect, it } from 'vitest';
import { diffDocuments, operationsOf } from '../scripts/lib/contract-diff.mjs';
import { snapshotBundle } from './fixtures/bundles.js';
import { KEYWORD_CHANGES } from './fixtures/diff-keywords.js';
import { MUTATIONS, type Mutation } from './fixtures/diff-mutations.js';
import type { Json } from '../src/contract/json.js';

const bundles = new Map<string, Json>();
const bundle = (api: string): Json => {
  if (!bundles.has(api)) bundles.set(api, snapshotBundle(api));
  return bundles.get(api);
};

/** The gate's verdict on one mutation, with what it reported. */
function judge(m: Mutation) {
  const base = structuredClone(bundle(m.api));
  m.prepare?.(base);
  const head = structuredClone(base);
  m.mutate(head);
  const result = diffDocuments(base, head);
  const verdict = (['breaking', 'review', 'deprecated'] as const).find((v) => result[v].length) ?? 'harmless';
  return { base, head, result, verdict };
}

describe('the corpus', () => {
  it('has at least 60 mutations, with every verdict, each named once and with a reason', () => {
    expect(MUTATIONS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(MUTATIONS.map((m) => m.name)).size).toBe(MUTATIONS.length);
    for (const verdict of ['breaking', 'harmless', 'review', 'deprecated'])
      expect(MUTATIONS.filter((m) => m.verdict === verdict).length).toBeGreaterThan(verdict === 'deprecated' ? 3 : 5);
    for (const m of MUTATIONS) expect(m.reason.length, m.name).toBeGreaterThan(3);
  });
});

// Cases a review of the gate found: changes a structural diff can miss (and
// the keywords it had covered only by reading), and harmless ones it can
// take for breaks.
const REVIEWED_CASES = {
  missed: [
    'API-key scheme becomes a bearer token',
    'X-Auth-Key header renamed',
    'security requirement added to one sandbox operation',
    'prefixItems added to a request array',
    'request default changed (limit 15 → 20)',
    'not added to a request field',
    'if/then added to a request',
    'dependentRequired added to a request',
    'patternProperties added to request metadata',
    'propertyNames narrowed in a request',
    'discriminator property renamed',
    'readOnly added to a request field',
    'writeOnly added to an answer field',
    '$ref sibling narrows a request field',
  ],
  falseAlarms: [
    'explicit query defaults deleted (style form, explode true)',
    'format int32 → int64 on a request parameter',
    'nullable idiom anyOf [X, null] on a request field',
    'inline oneOf alternatives reordered',
  ],
};

describe('the cases a review of the gate named', () => {
  it.each(REVIEWED_CASES.missed)('%s: in the corpus, not harmless', (name) => {
    expect(MUTATIONS.find((m) => m.name === name)?.verdict).toMatch(/^(breaking|review)$/);
  });
  it.each(REVIEWED_CASES.falseAlarms)('%s: in the corpus, harmless', (name) => {
    expect(MUTATIONS.find((m) => m.name === name)?.verdict).toBe('harmless');
  });
});

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
