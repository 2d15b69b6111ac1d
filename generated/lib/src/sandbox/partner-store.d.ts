import type { components } from '../../generated/types/partner.js';
import type { WebhookEvent } from '../webhooks/events.js';
import type { Clock } from './clock.js';
import { type EmittedEvent } from './partner-api.js';
import type { StoredUser, StoredVerification, VerificationStatus } from './partner-records.js';
import { SandboxRandom } from './random.js';
import { KeyIndex } from './record-index.js';
import { WebhookLog, type WebhookLogEntry } from './partner-webhook-log.js';
type S = components['schemas'];
export interface PartnerStateOptions {
    clock: Clock;
    /** The first active `X-Auth-Key`; `reset()` returns to it. */
    authKey: string;
    /** Where webhooks go; absent means none configured until `PUT /partners`. */
    webhookUrl?: string;
    /** Base address of the sandbox, used in verification `url`s. */
    publicUrl: string;
    onEvent: (e: EmittedEvent) => void;
    /** Must return UUIDs: ids of events, verifications and users all come from it. */
    newId?: () => string;
    /** Every random value the state draws; saved with --state so replays draw the same. */
    random?: SandboxRandom;
}
/** The whole partner state as JSON (--state snapshots); indexes are rebuilt from it. */
export interface PartnerSnapshot {
    webhookUrl?: string;
    partner: S['Partner'];
    authKeys: S['AuthKey'][];
    verifications: StoredVerification[];
    users: StoredUser[];
    fingerprintIds: [string, string][];
    log: readonly WebhookLogEntry[];
    nameTurn: number;
    nextUserSeq: number;
}
/** Statuses in which `validTo` still matters (source: "`validTo` reached" rows). */
export declare const EXPIRABLE: ReadonlySet<VerificationStatus>;
/** What a new create may close or conflict with. */
export declare const UNFINISHED: ReadonlySet<VerificationStatus>;
export declare class PartnerStore {
    protected readonly options: PartnerStateOptions;
    protected readonly rand: SandboxRandom;
    protected readonly newId: () => string;
    protected publicUrl: string;
    protected webhookUrl: string | undefined;
    protected partner: S['Partner'];
    protected authKeys: S['AuthKey'][];
    /** Creation order; `seq` is the position. */
    protected order: StoredVerification[];
    protected verifications: Map<string, StoredVerification>;
    protected users: Map<string, StoredUser>;
    /** Users in creation order (deleted ones leave it). */
    protected userOrder: StoredUser[];
    protected nextUserSeq: number;
    protected fingerprintIds: Map<string, string>;
    protected nameTurn: number;
    protected log: WebhookLog;
    protected unfinishedByPhone: KeyIndex<string, StoredVerification>;
    protected expirable: Set<StoredVerification>;
    protected nextExpiryMs: number;
    protected byPhone: KeyIndex<string, StoredVerification>;
    protected byExternalUserId: KeyIndex<string, StoredVerification>;
    protected byUserId: KeyIndex<string, StoredVerification>;
    protected byStatus: KeyIndex<"created" | "started" | "waitingForUserInput" | "inReview" | "completed" | "declined" | "closed" | "expired" | "reverted", StoredVerification>;
    protected byDevice: KeyIndex<string, StoredVerification>;
    protected byToken: Map<string, StoredVerification>;
    /** Whether `createdAt` rises with `seq`, so a createdAt window is a range of `order`. */
    protected createdInOrder: boolean;
    protected usersByPhone: KeyIndex<string, StoredUser>;
    protected usersByExternalUserId: KeyIndex<string, StoredUser>;
    protected shareholders: KeyIndex<boolean, StoredUser>;
    constructor(options: PartnerStateOptions);
    reset(): void;
    /** The base of new verification `url`s (a replay uses the one of the process that made the change). */
    usePublicUrl(url: string): void;
    /** The state as JSON-ready data; shares objects with the live state, so serialize it at once. */
    snapshot(): PartnerSnapshot;
    /** Replaces the whole state with a snapshot and rebuilds every index. */
    load(saved: PartnerSnapshot): void;
    protected clock(): Date;
    protected nowIso(): string;
    /** Every read or change first lets time do its work. */
    protected verification(id: string): StoredVerification;
    protected user(id: string): StoredUser;
    protected userWithPhone(phoneNumber: string): StoredUser | undefined;
    /** Overridden by the lifecycle: expires what the clock has passed. */
    expireDue(): void;
    protected addVerification(v: StoredVerification): void;
    /** After a change of status, user, phone numbers or devices. */
    protected reindex(v: StoredVerification): void;
    protected addUser(user: StoredUser): void;
    protected removeUser(user: StoredUser): void;
    /** After a change of the user's phone numbers, external users or shares. */
    protected reindexUser(user: StoredUser): void;
    /** Every status change emits `verification.updated` (source, States notes). */
    protected setStatus(v: StoredVerification, status: VerificationStatus, at?: string): void;
    /** Indexes a verification that is open or in review by phone, and one that can expire by its validTo. */
    protected track(v: StoredVerification): void;
    protected envelope<E extends WebhookEvent>(dataType: E['dataType'], eventType: E['eventType'], data: E['data'], at?: string): E;
    protected emitVerification(v: StoredVerification, eventType: 'verification.created' | 'verification.updated', at?: string): void;
    protected emitUser(user: StoredUser, eventType: 'user.created' | 'user.merged' | 'user.updated' | 'user.deleted'): void;
    /** Records the webhook in the history it belongs to, then hands it to the HTTP layer. */
    protected emit(emitted: EmittedEvent, metadata?: Record<string, unknown>): void;
    /** The recorded webhook with this id (pending deliveries after a restart). */
    emitted(eventId: string): EmittedEvent | undefined;
}
export {};
