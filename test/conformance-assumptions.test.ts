// Conformance tells a broken document from a wrong assumption: a deployment
// that breaks only a rule the contract assumed (a row of the assumptions
// page) is reported as that assumption, and `--fail-on documented` passes
// it; one that breaks a rule of the service's documents fails either way.
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ConformanceReport } from '../src/conformance/report.js';
import { parseFaults } from '../src/sandbox/http/faults.js';
import { serveSandbox } from '../src/sandbox/server.js';
import { cli } from './helpers/cli.js';
import { sandboxDeparting } from './helpers/sandbox-proxy.js';

const KEY = 'sbx_assumptions_key_0123456789';

async function conformance(url: string, ...more: string[]): Promise<{ code: number; report: ConformanceReport }> {
  const { code, out, err } = await cli([
    'conformance',
    ...['--api', 'partner', '--base-url', url, '--auth-key', KEY, '--rate', '0', '--seed', '12'],
    ...['--requests', '200', '--json', ...more],
  ]);
  expect(out, err).not.toBe('');
  return { code, report: JSON.parse(out) };
}

describe('conformance classifies each violation by whose rule it breaks', () => {
  it('a deployment taking a fractional page or limit (P7 assumes whole numbers) breaks an assumption only', async () => {
    // As a service that reads "numbers" loosely would: the fraction is dropped, the page answered.
    const proxied = await sandboxDeparting(KEY, async (request, answer) => {
      const url = new URL(request.url);
      // Only fractions inside the documented bounds (limit at most 50): a service may read them whole.
      const fractions = ['page', 'limit'].filter((name) => {
        const value = url.searchParams.get(name) ?? '';
        return /^\d+\.\d+$/.test(value) && Number(value) < 50;
      });
      if (!fractions.length) return answer();
      for (const name of fractions) url.searchParams.delete(name);
      return proxied.sandbox.fetch(new Request(url, { headers: request.headers }));
    });
    const all = await conformance(proxied.url);
    expect(all.report.violations.length).toBeGreaterThan(0);
    for (const v of all.report.violations) {
      expect(v.basis, v.rule).toBe('assumption');
      expect(v.assumptions).toEqual(['P7']);
      expect(v.rule).toMatch(/^query (page|limit)/);
    }
    expect(all.code).toBe(1);
    const documented = await conformance(proxied.url, '--fail-on', 'documented');
    expect(documented.report.violations.length).toBeGreaterThan(0);
    expect(documented.code).toBe(0);
  });

  it('an answer without a field P8 assumes is always sent is reported as P8', async () => {
    const sandbox = await serveSandbox({ port: 0, authKey: KEY, faults: parseFaults('missing-field@getUser') });
    onTestFinished(() => sandbox.close());
    await fetch(`${sandbox.url}/_sandbox/seed`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    const { code, report } = await conformance(sandbox.url, '--fail-on', 'documented');
    expect(report.violations.length).toBeGreaterThan(0);
    for (const v of report.violations) expect([v.basis, v.assumptions]).toEqual(['assumption', ['P8']]);
    expect(code).toBe(0);
  });

  it("a deployment accepting a page size above the documented 50 breaks the documents' rule", async () => {
    const proxied = await sandboxDeparting(KEY, async (request, answer) => {
      const url = new URL(request.url);
      const limit = Number(url.searchParams.get('limit'));
      if (!(Number.isInteger(limit) && limit > 50)) return answer();
      url.searchParams.set('limit', '50');
      return proxied.sandbox.fetch(new Request(url, { headers: request.headers }));
    });
    const { code, report } = await conformance(proxied.url, '--fail-on', 'documented');
    const documents = report.violations.filter((v) => v.basis === 'documents');
    expect(documents.length).toBeGreaterThan(0);
    for (const v of documents) {
      expect(v.rule).toMatch(/^query limit: above-maximum/);
      expect(v.assumptions).toEqual([]);
    }
    expect(code).toBe(1);
  });
});
