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
export interface WorkflowResult {
    workflowId: string;
    status: 'passed' | 'failed' | 'skipped';
    reason?: string;
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
}
export declare function tally(report: ConformanceReport, operationId: string, operation: string): OperationTally;
/** The report for a person: each violation with what to act on, then the summary. */
export declare function formatText(report: ConformanceReport): string;
/** JUnit XML: one test case per operation (and per workflow), failing with its violations. */
export declare function formatJunit(report: ConformanceReport): string;
