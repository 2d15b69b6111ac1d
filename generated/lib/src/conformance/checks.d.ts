import type { ParsedRequest } from '../sandbox/contract.js';
import type { OperationModel } from './operations.js';
import { type Json } from './schema-values.js';
export type RequestKind = 'valid' | 'invalid' | 'auth-missing' | 'auth-wrong' | 'discovery' | 'workflow';
/** What the answer broke, each with where (schema path) or which rule. */
export type Problems = string[];
/** Every way the answer departs from the contract, for a request of this kind. */
export declare function checkAnswer(op: OperationModel, doc: Json, kind: RequestKind, status: number, received: unknown, parsed?: ParsedRequest): Problems;
