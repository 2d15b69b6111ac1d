// The lifecycle the overview of openapi/partner states as the documentation does: the
// state table (L84-L105) and the event sequences (L229-L234).
import { describe, expect, it } from 'vitest';
import { markdownTables } from './helpers/document-texts.js';
import { NEW_USER_SEQUENCE } from './helpers/sequences.js';
import { ASSUMED_TRANSITIONS, doc, sorted, TRANSITIONS } from './helpers/partner-document.js';

describe('lifecycle in the overview', () => {
  const text: string = doc.info.description;
  // Cells as written, backticks kept; each table as [header, ...rows].
  const tables = markdownTables(text, (c) => c.trim()).map((t) => [t.header, ...t.rows]);

  describe('state table', () => {
    const table = tables.find((t) => /From/.test(t[0][0]) && t[0].some((c) => /Next/.test(c)))!;
    const nextAt = table ? table[0].findIndex((c) => /Next/.test(c)) : -1;
    const alsoAt = table ? table[0].findIndex((c) => /Also/.test(c)) : -1;
    it.each(TRANSITIONS)('lists %s → %s', (from, next, also) => {
      const token = from === '(none)' ? '(none)' : `\`${from}\``;
      const rows = table.slice(1).filter((r) => r[0] === token && r[nextAt].includes(`\`${next}\``));
      expect(rows.length).toBeGreaterThan(0);
      if (also) expect(rows.map((r) => r[alsoAt]).join(' ')).toContain(`\`${also}\``);
    });

    it('lists no transition the documentation does not, besides the assumed ones', () => {
      const listed = table
        .slice(1)
        .flatMap((r) => [...r[nextAt].matchAll(/`([a-zA-Z]+)`/g)].map((m) => `${r[0].replace(/`/g, '')} -> ${m[1]}`));
      expect(sorted([...new Set(listed)])).toEqual(
        sorted([...TRANSITIONS, ...ASSUMED_TRANSITIONS].map(([f, n]) => `${f} -> ${n}`)),
      );
    });

    it('names the causes: link opened, review, revert or later analysis, validTo', () => {
      const joined = table.map((r) => r.join(' | ')).join('\n');
      expect(joined).toMatch(/opens the link/);
      expect(joined).toMatch(/manual review/);
      expect(joined).toMatch(/revert operation[^\n]*analysis[^\n]*irregularities/);
      expect(joined).toMatch(/`validTo` reached/);
      expect(joined).toMatch(/phone number belongs to another user/);
      expect(joined).toMatch(/same phone number/);
    });

    it('states final states and that every status change sends verification.updated', () => {
      expect(text).toMatch(/`completed` carries `userId`/);
      expect(text).toMatch(/`closed` and\s+`expired` are final/);
      expect(text).toMatch(/`declined`[\s\S]*`reverted`/);
      expect(text).toMatch(/Every status change sends `verification\.updated`/);
    });
  });

  describe('event sequences', () => {
    const table = tables.find((t) => /Scenario/.test(t[0][0]))!;
    const SEQUENCES: Record<string, readonly string[]> = {
      'New user': NEW_USER_SEQUENCE,
      Merge: ['verification.created', 'verification.updated', 'verification.updated', 'user.merged'],
      'Manual review': [
        ...NEW_USER_SEQUENCE.slice(0, 2),
        'verification.updated',
        'verification.updated',
        'user.created',
      ],
    };

    it('is a Markdown table of the three scenarios', () => {
      expect(table).toBeDefined();
      expect(sorted(table.slice(1).map((r) => r[0]))).toEqual(sorted(Object.keys(SEQUENCES)));
    });

    it.each(Object.entries(SEQUENCES))('%s: events in order', (scenario, events) => {
      const row = table.slice(1).find((r) => r[0] === scenario)!;
      expect([...row[1].matchAll(/`([a-z]+\.[a-z]+)`/g)].map((m) => m[1])).toEqual(events);
    });

    it('says what triggers the steps', () => {
      const joined = table.map((r) => r.join(' | ')).join('\n');
      expect(joined).toMatch(/opens the link/);
      expect(joined).toMatch(/name entered/);
      expect(joined).toMatch(/phone verified/);
      expect(joined).toMatch(/face model matches an existing user/);
      expect(joined).toMatch(/review needed/);
      expect(joined).toMatch(/reviewer creates an account/);
    });
  });
});
