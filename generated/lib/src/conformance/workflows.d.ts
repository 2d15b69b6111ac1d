import type { Exchange } from './http.js';
import { type Json } from './schema-values.js';
export interface StepCall {
    /** `workflow new-user, step create` */
    where: string;
    source: string;
    operationId: string;
    method: string;
    target: string;
    headers: Record<string, string>;
    body: string | undefined;
}
export interface StepOutcome {
    workflowId: string;
    stepId: string;
    call: StepCall;
    exchange: Exchange;
    /** Success criteria that did not hold. */
    failed: string[];
}
type Send = (call: StepCall) => Promise<Exchange>;
interface Scope {
    inputs: Record<string, unknown>;
    steps: Record<string, Record<string, unknown>>;
    exchange?: Exchange;
}
/** The value of a runtime expression or literal. */
export declare function evaluate(expr: string, scope: Scope): unknown;
/** A simple success criterion: `left op right`, or a lone expression that must be truthy. */
export declare function holds(condition: string, scope: Scope): boolean;
/** Sources (descriptions) a workflow calls. */
export declare function sourcesOf(workflow: Json): Set<string>;
/** Fresh inputs: the credential, and partner user ids and phone numbers the target has not seen. */
export declare function inputsFor(workflow: Json, credential: string): Record<string, unknown>;
/** Runs one workflow; stops at the first step whose criteria fail. Returns every step's outcome and the workflow's outputs. */
export declare function runWorkflow(workflow: Json, inputs: Record<string, unknown>, docs: Record<string, Json>, send: Send): Promise<{
    outcomes: StepOutcome[];
    outputs: Record<string, unknown>;
}>;
export {};
