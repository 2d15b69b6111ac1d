import type { SandboxClock } from './clock.js';
import type { ParsedRequest } from './contract.js';
import type { DeliveryResult } from './partner-control.js';
import type { Handler } from './partner-handlers.js';
import type { StoredUser, StoredVerification } from './partner-records.js';
import type { PartnerSnapshot, PartnerState } from './partner-state.js';
import type { WebhookLogEntry } from './partner-webhook-log.js';
import type { RandomState, SandboxRandom } from './random.js';
import type { V2State, V2Verification } from './v2-state.js';
/** What the header line of a snapshot holds besides the records. */
export interface StateMeta {
    authKey: string;
    accessToken: string;
    /** The address of the process that wrote the snapshot and the journal after it (verification urls carry it). */
    publicUrl: string;
    random: RandomState;
    clockOffsetMs: number;
    partner: Omit<PartnerSnapshot, 'verifications' | 'users' | 'log'>;
    /** Webhooks not yet delivered with success (delivery resumes after a restart). */
    pending: string[];
}
type SnapshotLine = {
    v: StoredVerification;
} | {
    u: StoredUser;
} | {
    w: WebhookLogEntry;
} | {
    s: V2Verification;
};
type JournalRecord = {
    t: number;
    op: string;
    req: ParsedRequest;
} | {
    t: number;
    op: 'delivery';
    eventId: string;
    result: DeliveryResult;
};
/** Reads the saved identity (keys, seed) before the state is built; absent for a new file. */
export declare function savedIdentity(file: string): {
    loaded: import("./state-file.js").LoadedStateFile<StateMeta, SnapshotLine, JournalRecord>;
    meta: StateMeta | undefined;
};
export interface PersistenceDeps {
    clock: SandboxClock;
    random: SandboxRandom;
    partner: PartnerState;
    v2: V2State;
    authKey: string;
    accessToken: string;
    publicUrl: string;
}
export declare class Changes {
    private readonly deps;
    /** True while the journal is replayed: events are rebuilt, not sent again. */
    replaying: boolean;
    private readonly pending;
    private file?;
    constructor(deps: PersistenceDeps);
    /**
     * Loads a state file (already read) into the state and replays its journal
     * through `handlers`; then keeps appending to it. Returns the warnings to print.
     */
    open(file: string, loaded: ReturnType<typeof savedIdentity>['loaded'], handlers: Record<string, Handler>): string[];
    /**
     * Runs a request's handler at one instant. A change that answered 2xx is
     * journaled; its answer is then returned only once it is on disk.
     */
    apply(op: string, write: boolean, req: ParsedRequest, handle: Handler): [number, unknown] | Promise<[number, unknown]>;
    /** A webhook emitted now; it stays pending until delivered with success. */
    emitted(eventId: string): void;
    /** The outcome of a delivery attempt, journaled (nobody waits for it). */
    delivered(eventId: string, result: DeliveryResult): void;
    /** Events whose delivery a restart must resume. */
    pendingEvents(): string[];
    close(): void;
    /** A journaled change again; one that no longer succeeds would mean the replay diverged. */
    private replay;
    private run;
    private deliveryAt;
    private snapshot;
}
export {};
