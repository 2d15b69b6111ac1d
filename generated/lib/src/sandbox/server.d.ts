import { SandboxClock } from './common/clock.js';
import type { EmittedEvent } from './partner/api.js';
import { PartnerState } from './partner/state.js';
import { V2State } from './v2/state.js';
import { type FaultSpec } from './http/faults.js';
export interface SandboxOptions {
    port?: number;
    host?: string;
    /** The partner's first active auth key; generated when absent. */
    authKey?: string;
    /** The v2 bearer token; generated when absent. */
    accessToken?: string;
    /** Check every answer against the documents and answer 500 on a violation (for tests). */
    validateResponses?: boolean;
    /** Called for every webhook the sandbox emits. */
    onEvent?: (emitted: EmittedEvent) => void;
    /** The partner's webhookUrl at start (PUT /partners changes it). */
    webhookUrl?: string;
    /** Webhook retry interval in ms; the service's is 15 minutes. */
    retryIntervalMs?: number;
    /** Keep the whole state in this file across restarts (DECISIONS S21); its saved keys win over authKey/accessToken. */
    state?: string;
    /** Called with each warning (a torn last record of the state file); printed to stderr when absent. */
    onWarning?: (message: string) => void;
    /** Called with one line for each webhook delivery that failed (what, where, why, when it is retried); printed to stderr when absent. */
    onDeliveryFailure?: (line: string) => void;
    /** Departures from the contract to commit on purpose (see http/faults.ts), for proving a conformance run notices them. */
    faults?: FaultSpec[];
    /** A connection that has not sent its whole headers in this time is answered 408 and closed (default 10 s). */
    headersTimeoutMs?: number;
    /** The same for the whole request, body included (default 30 s). */
    requestTimeoutMs?: number;
    /** Send a GET's kept answer while the state is unchanged (DECISIONS S25); default true. */
    answerCache?: boolean;
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
export declare function startSandbox(options?: SandboxOptions): Promise<Sandbox>;
