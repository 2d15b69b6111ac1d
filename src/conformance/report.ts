// The runner's findings and how they are written: text for a person, JSON
// and JUnit XML for CI. Everything here is already redacted.
import type { RequestKind } from './checks.js';

export interface Violation {
  api: string;
  operationId: string;
  /** `GET /verifications/{verificationId}` */
  operation: string;
  kind: RequestKind;
  /** Invalid requests: the rule the request broke; workflows: the workflow and step. */
  rule?: string;
  curl: string;
  status: number;
  /** The body received, redacted, at most 2,000 characters. */
  body: string;
  /** What the answer broke: schema paths or rules. */
  problems: string[];
  /** `documents` when any broken rule is the documents'; `assumption` when each is an assumption (rows in `assumptions`). */
  basis: 'documents' | 'assumption';
  assumptions: string[];
}

export interface OperationTally {
  operationId: string;
  operation: string;
  valid: number;
  invalid: number;
  credentials: number;
  workflow: number;
  violations: number;
}

interface WorkflowResult {
  workflowId: string;
  status: 'passed' | 'failed' | 'skipped';
  reason?: string;
  /** Workflows that ran: their inputs but the credential, to find their data and webhooks by. */
  inputs?: Record<string, unknown>;
}

export interface ConformanceReport {
  api: string;
  baseUrl: string;
  seed: number;
  allowWrites: boolean;
  requests: number;
  /** Why the run stopped before sending everything it planned (--max-requests). */
  stoppedEarly?: string;
  operations: OperationTally[];
  workflows: WorkflowResult[];
  violations: Violation[];
  /** --rotate-key: the file the new key went to; `written: false` when the rotation answered no active key. */
  rotation?: { keyFile: string; written: boolean };
}

/** Where the new key is, once the rotation has answered (stderr, the report, an error after it). */
export const rotationNotice = (keyFile: string): string =>
  `the auth key was rotated: the new key is in ${keyFile}; the previous key no longer works (POST /auth-keys makes it invalid at once), so use the new one from now on`;

/** `3 violations of the documents; 2 assumptions the service does not bear out: P7, P29 (4 violations)` */
function summary(violations: Violation[]): string {
  const documents = violations.filter((v) => v.basis === 'documents').length;
  const assumed = violations.filter((v) => v.basis === 'assumption');
  const byNumber = new Intl.Collator('en', { numeric: true }).compare;
  const rows = [...new Set(assumed.flatMap((v) => v.assumptions))].sort(byNumber);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts = [`${plural(documents, 'violation')} of the documents`];
  if (assumed.length)
    parts.push(
      `${plural(rows.length, 'assumption')} the service does not bear out: ${rows.join(', ')} (${plural(assumed.length, 'violation')})`,
    );
  return `${violations.length ? '✗' : '✓'} ${parts.join('; ')}`;
}

/** Whose rule a violation broke, for a person: `the documents' rule` or `assumed: P7, P29 (the assumptions page)`. */
const basisText = (v: Violation) =>
  v.basis === 'documents' ? "the documents' rule" : `assumed: ${v.assumptions.join(', ')} (the assumptions page)`;

/** The Arazzo file of the workflows, relative to the package's folder. */
export const WORKFLOWS_FILE = 'generated/workflows/partner-sequences.arazzo.json';

export function tally(report: ConformanceReport, operationId: string, operation: string): OperationTally {
  let row = report.operations.find((o) => o.operationId === operationId);
  if (!row) {
    row = { operationId, operation, valid: 0, invalid: 0, credentials: 0, workflow: 0, violations: 0 };
    report.operations.push(row);
  }
  return row;
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const cell = (c: string, i: number) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]));
  return rows.map((r) => r.map(cell).join('  ').trimEnd());
}

/** The report for a person: each violation with what to act on, then the summary. */
export function formatText(report: ConformanceReport): string {
  const out: string[] = [];
  for (const [i, v] of report.violations.entries()) {
    out.push(
      `✗ ${i + 1}. ${v.api} ${v.operationId} (${v.operation}) — ${v.kind} request${v.rule ? `; ${v.rule}` : ''}`,
    );
    out.push(`  rule of:  ${basisText(v)}`, `  request:  ${v.curl}`, `  received: ${v.status} ${v.body}`);
    out.push(...v.problems.map((p) => `  broken:   ${p}`), '');
  }
  const rows = [['operation', 'valid', 'invalid', 'credentials', 'workflow', 'violations']];
  for (const o of report.operations) {
    const counts = [o.valid, o.invalid, o.credentials, o.workflow].map(String);
    rows.push([`${o.operationId} (${o.operation})`, ...counts, o.violations ? `✗ ${o.violations}` : '0']);
  }
  out.push(...table(rows));
  if (report.workflows.length) {
    // Named as installed: node_modules/@verification-service/contracts/<this path>.
    out.push('', `Workflows (Arazzo, ${WORKFLOWS_FILE} in the package):`);
    for (const w of report.workflows)
      out.push(`  ${w.status.padEnd(7)} ${w.workflowId}${w.reason ? `: ${w.reason}` : ''}`);
  }
  out.push('');
  if (report.stoppedEarly) out.push(`Stopped early: ${report.stoppedEarly}.`);
  if (report.rotation)
    out.push(
      report.rotation.written
        ? `Key rotation: ${rotationNotice(report.rotation.keyFile)}.`
        : `Key rotation: POST /auth-keys answered no key marked active, so nothing was written to ${report.rotation.keyFile}; if the key you ran with is now refused, get a new one from the service.`,
    );
  out.push(
    `${summary(report.violations)} in ${report.requests} requests to ${report.baseUrl} (${report.api} API, ${
      report.allowWrites ? 'writes allowed' : 'read-only'
    }). Reproduce with --seed ${report.seed}.`,
  );
  return out.join('\n');
}

const xml = (s: string) =>
  s
    .replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML 1.0 forbids are what it removes
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** JUnit XML: one test case per operation (and per workflow), failing with its violations. */
export function formatJunit(report: ConformanceReport): string {
  const testcase = (suite: string, name: string, inside: string) =>
    `    <testcase classname="conformance.${report.api}${suite}" name="${xml(name)}"${inside ? `>${inside}</testcase>` : '/>'}`;
  const cases = report.operations.map((o) => {
    const mine = report.violations.filter((v) => v.operationId === o.operationId && v.kind !== 'workflow');
    const text = mine
      .map(
        (v) =>
          `${v.kind}${v.rule ? ` (${v.rule})` : ''}, ${basisText(v)}: ${v.problems.join('; ')}\n${v.curl}\n-> ${v.status} ${v.body}`,
      )
      .join('\n\n');
    const failure = `\n      <failure message="${xml(`${mine.length} violation(s)`)}">${xml(text)}</failure>\n    `;
    return testcase('', `${o.operationId} (${o.operation})`, mine.length ? failure : '');
  });
  for (const w of report.workflows) {
    // A workflow skipped or failed always says why.
    const tag = w.status === 'skipped' ? 'skipped' : 'failure';
    const outcome = w.status === 'passed' ? '' : `<${tag} message="${xml(w.reason ?? '')}"/>`;
    cases.push(testcase('.workflows', `workflow ${w.workflowId}`, outcome));
  }
  const failures =
    report.operations.filter((o) => o.violations).length + report.workflows.filter((w) => w.status === 'failed').length;
  const skipped = report.workflows.filter((w) => w.status === 'skipped').length;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="verification-contracts conformance" tests="${cases.length}" failures="${failures}">
  <testsuite name="conformance.${report.api}" tests="${cases.length}" failures="${failures}" skipped="${skipped}">
    <properties><property name="baseUrl" value="${xml(report.baseUrl)}"/><property name="seed" value="${report.seed}"/></properties>
${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}
