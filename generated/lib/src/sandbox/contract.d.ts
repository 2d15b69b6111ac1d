import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
type Doc = Record<string, any>;
/** One offending input: where it is, which rule it broke, the rule's parameters. */
export interface Violation {
    field: string;
    reasonCode: string;
    params: Record<string, unknown>;
}
export interface ParsedRequest {
    params: Record<string, unknown>;
    query: Record<string, unknown>;
    body: unknown;
}
export interface RouteSpec {
    api: string;
    operationId: string;
    method: string;
    /** The path as documented, `/verifications/{verificationId}`. */
    path: string;
    /** The same in fastify's syntax, `/verifications/:verificationId`. */
    url: string;
    security: 'bearer' | 'authKey' | 'none';
    hasBody: boolean;
    /** Parses and checks path, query and body; returns the typed values or the violations. */
    parse(raw: {
        params: Record<string, string>;
        query: URLSearchParams;
        body: unknown;
    }): {
        ok: true;
        value: ParsedRequest;
    } | {
        ok: false;
        violations: Violation[];
    };
    /** Violations of the response schema declared for the status (none when valid). */
    checkResponse(status: number, body: unknown): string[];
}
export declare class Contract {
    readonly api: string;
    readonly doc: Doc;
    readonly ajv: Ajv2020;
    readonly routes: RouteSpec[];
    private readonly errorValidator;
    constructor(api: string, doc: Doc, options: {
        errorSchema: string;
        security: (op: Doc) => RouteSpec['security'];
    });
    /** A validator of the schema at a JSON pointer of the document. */
    compile(pointer: string): ValidateFunction;
    /** The same, compiled on its first use. */
    lazy(pointer: string): () => ValidateFunction;
    private route;
    /** Violations of the document's error schema (for answers outside any route). */
    checkError(body: unknown): string[];
}
export {};
