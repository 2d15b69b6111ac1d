import type { SandboxClock } from './common/clock.js';
import { type FaultSpec } from './http/faults.js';
import type { PartnerState } from './partner/state.js';
import type { V2State } from './v2/state.js';
import type { StartSandboxOptions } from './in-process.js';
/**
 * The in-process API's options (the command line's, under the same names;
 * `port` defaults to 4020 here) and those of this package's own tests.
 */
export interface SandboxOptions extends StartSandboxOptions {
    host?: string;
    /** Check every answer against the documents and answer 500 on a violation (for tests). */
    validateResponses?: boolean;
    /** Called with each warning (a torn last record of the state file); printed to stderr when absent. */
    onWarning?: (message: string) => void;
    /** Departures from the contract to commit on purpose (see http/faults.ts), for proving a conformance run notices them. */
    faults?: FaultSpec[];
    /** A connection that has not sent its whole headers in this time is answered 408 and closed (default 10 s). */
    headersTimeoutMs?: number;
    /** The same for the whole request, body included (default 30 s). */
    requestTimeoutMs?: number;
    /** Where partner ids come from (UUIDs; random by default). Tests use it to give records documented ids. */
    newId?: () => string;
}
export interface Sandbox {
    url: string;
    authKey: string;
    accessToken: string;
    clock: SandboxClock;
    partner: PartnerState;
    v2: V2State;
    /** Contract violations of answers seen so far (with validateResponses). */
    violations: string[];
    close(): Promise<void>;
}
/** Starts the sandbox server; `startSandbox` of `@verification-service/contracts/sandbox` (in-process.ts) is this for a partner's test suite. */
export declare function serveSandbox(options?: SandboxOptions): Promise<Sandbox>;
