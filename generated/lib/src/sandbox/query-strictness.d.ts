import type { Violation } from './contract.js';
/** How one declared query parameter is written (OpenAPI `style: form`). */
export interface QueryForm {
    name: string;
    array: boolean;
    /** `status=a&status=b` when true, `status=a,b` when false. */
    explode: boolean;
}
/** What a client should send for a parameter: its name in the documented form. */
export declare function expectedForm(p: QueryForm): string;
/**
 * Violations of the query's serialisation, and the declared names they
 * concern (their values are then not checked again).
 */
export declare function queryFormViolations(query: URLSearchParams, forms: QueryForm[]): {
    violations: Violation[];
    refused: Set<string>;
};
/** A repeated (exploded) parameter whose value was written comma-separated, or undefined. */
export declare function commaJoinedViolation(form: QueryForm, texts: string[]): Violation | undefined;
