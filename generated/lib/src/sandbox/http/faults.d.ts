import type { RouteSpec } from '../../contract/routes.js';
export declare const FAULTS: {
    readonly 'missing-field': "drops the first field of every successful answer";
    readonly 'wrong-status': "answers 202 (documented nowhere) instead of the success status";
    readonly 'ignored-filter': "ignores the query filters of the lists (keeps page and page size)";
    readonly 'accepts-invalid': "answers an invalid request with the success status and the documented example instead of 400";
    readonly 'server-error': "answers 500 to every request";
    readonly 'ignores-credentials': "serves requests without a valid credential instead of answering 401";
};
export type FaultName = keyof typeof FAULTS;
export interface FaultSpec {
    fault: FaultName;
    /** Only this operation (in either API); every operation when absent. */
    operationId?: string;
}
/** Parses `missing-field,wrong-status@getUser`; throws with the known faults on a mistake. */
export declare function parseFaults(text: string): FaultSpec[];
type Answer = [number, unknown];
export declare class Faults {
    private readonly specs;
    constructor(specs?: FaultSpec[]);
    /** Whether any fault was asked for. */
    get active(): boolean;
    private has;
    /** `ignores-credentials`: serve the request whatever its credential. */
    ignoresCredentials(route: RouteSpec): boolean;
    /** `server-error`: the answer to send before anything else, or undefined. */
    serverError(route: RouteSpec): Answer | undefined;
    /** `ignored-filter`: the query without its filters. */
    query(route: RouteSpec, query: URLSearchParams): URLSearchParams;
    /** `accepts-invalid`: the answer to an invalid request, or undefined to refuse it as documented. */
    acceptInvalid(route: RouteSpec): Answer | undefined;
    /** `wrong-status` and `missing-field` on a successful answer. */
    answer(route: RouteSpec, [status, body]: Answer): Answer;
}
export {};
