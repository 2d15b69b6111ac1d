// openapi/DECISIONS.md lists every choice the contract makes where the source
// documents are silent; the documents point to it where they make one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APIS } from '../scripts/lib/apis.mjs';
import { ROOT } from '../scripts/lib/paths.mjs';
import { deref, loadBundle, operationsOf } from './helpers/openapi.js';

const decisions = readFileSync(path.join(ROOT, 'openapi', 'DECISIONS.md'), 'utf8');
const rows = decisions
  .split('\n')
  .filter((line) => /^\| [A-Z]+\d+ \|/.test(line))
  // Cells may hold escaped pipes (`\|`) when they quote a source table.
  .map((line) => line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim()));

describe('DECISIONS.md', () => {
  it('has numbered rows, each naming the source line it answers, a decision and a reason', () => {
    expect(rows.length).toBeGreaterThan(5);
    const ids = rows.map((r) => r[0]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [id, source, decision, why] of rows) {
      expect(source.length, `${id} source`).toBeGreaterThan(10);
      expect(decision.length, `${id} decision`).toBeGreaterThan(10);
      expect(why.length, `${id} reason`).toBeGreaterThan(10);
    }
  });

  describe.each(APIS.map((api) => api.name))('%s', (api) => {
    const doc = loadBundle(api);

    it('has a section for the API', () => {
      expect(decisions).toContain(`(\`openapi/${api}\`)`);
    });

    it('lists every parameter whose description says it is a decision', () => {
      const params = operationsOf(doc)
        .flatMap((o) => o.operation.parameters ?? [])
        .map((p: object) => deref(doc, p))
        .filter((p: { description?: string }) => p.description?.includes('DECISIONS.md'));
      for (const p of params) expect(decisions, p.name).toContain(`\`${p.name}\``);
    });
  });
});
