import fc from 'fast-check';
import type { ParsedRequest } from '../sandbox/contract.js';
import type { OperationModel } from './operations.js';
import { type Json } from './schema-values.js';
export interface Draft {
    operation: OperationModel;
    kind: 'valid' | 'invalid';
    method: string;
    /** Path and query, as sent on the request line. */
    target: string;
    body: string | undefined;
    /** Invalid requests: the rule broken, `query limit: above-maximum (MAXIMUM)`. */
    rule?: string;
    /** Valid requests: the values as the contract reads them (for the filter checks). */
    parsed?: ParsedRequest;
}
export interface GenerationContext {
    doc: Json;
    /** Ids that exist on the target, by path parameter name (from the list operations). */
    knownIds: Record<string, string[]>;
    /** Fixed bodies for operations that must not send generated ones (PUT /partners gets the partner's current values). */
    fixedBodies?: Record<string, unknown>;
}
/** Valid requests for an operation (a request the contract would refuse is never among them). */
export declare function validRequests(ctx: GenerationContext, op: OperationModel): fc.Arbitrary<Draft>;
/** Requests that break one documented rule, or undefined when the operation has no rule a request can break. */
export declare function invalidRequests(ctx: GenerationContext, op: OperationModel): fc.Arbitrary<Draft> | undefined;
/** `count` drafts from an arbitrary, reproducible from the seed. */
export declare function sampleDrafts(arb: fc.Arbitrary<Draft>, seed: number, count: number): Draft[];
