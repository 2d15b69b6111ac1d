import type { FastifyInstance } from 'fastify';
/** Raised for a JSON body in another charset; the error handler answers 415. */
export declare class UnsupportedCharsetError extends Error {
    readonly charset: string;
    readonly code = "SANDBOX_UNSUPPORTED_CHARSET";
    constructor(charset: string);
}
export declare function useJsonBodies(app: FastifyInstance): void;
