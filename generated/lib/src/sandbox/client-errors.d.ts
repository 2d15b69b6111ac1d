import type { Duplex } from 'node:stream';
import type { Violation } from './contract.js';
export declare const MALFORMED_TARGET: Violation;
/** Fastify's `clientErrorHandler`: answers and closes the connection. */
export declare function answerClientError(err: Error & {
    code?: string;
}, socket: Duplex): void;
