import type { RouteSpec } from '../../contract/routes.js';
import type { Handler } from '../operations/partner.js';
export declare const FAULTS: {
    readonly 'missing-field': 'drops the first field of every successful answer';
    readonly 'wrong-status': 'answers 202 (documented nowhere) instead of the success status';
    readonly 'ignored-filter': 'ignores the query filters of the lists (keeps page and page size)';
    readonly 'accepts-invalid': "answers an invalid request with the success status and the documented example instead of 400";
    readonly 'server-error': 'answers 500 to every request';
    readonly 'ignores-credentials': 'serves requests without a valid credential instead of answering 401';
};
export type FaultName = keyof typeof FAULTS;
export interface FaultSpec {
    fault: FaultName;
    /** Only this operation (in either API); every operation when absent. */
    operationId?: string;
}
/** Parses `missing-field,wrong-status@getUser`; throws with the known faults on a mistake. */
export declare function parseFaults(text: string): FaultSpec[];
/**
 * An operation's route and handler as its faults make them, so the door
 * serves it as any other; as they are where no fault applies.
 */
export declare function withFaults(specs: FaultSpec[], route: RouteSpec, handle: Handler): {
    route: RouteSpec;
    handle: Handler;
};
