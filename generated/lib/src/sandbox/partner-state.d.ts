import type { components } from '../../generated/types/partner.js';
import type { Clock } from './clock.js';
import { type EmittedEvent, type Paging, type PartnerApi } from './partner-api.js';
import type { DeliveryResult, PartnerControl, ScanInput, SeedResult } from './partner-control.js';
type S = components['schemas'];
type Query<Op extends 'listVerifications' | 'listUsers'> = Parameters<PartnerApi[Op]>[0];
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
}
export declare class PartnerState implements PartnerApi, PartnerControl {
    private readonly options;
    private readonly newId;
    private readonly publicUrl;
    private webhookUrl;
    private partner;
    private authKeys;
    private verifications;
    private unfinishedByPhone;
    private expirable;
    private nextExpiryMs;
    private users;
    private fingerprintIds;
    private log;
    constructor(options: PartnerStateOptions);
    getPartner(): S['Partner'];
    updatePartner(body: S['PartnerUpdate']): S['Partner'];
    webhookTarget(): string | undefined;
    listAuthKeys(paging: Paging): S['AuthKeyList'];
    rotateAuthKey(): S['AuthKeyList'];
    activeAuthKey(): string;
    createVerification(body: S['VerificationCreate']): S['CreatedVerification'];
    revertVerification(body: S['VerificationRevert']): S['VerificationRevertResult'];
    listVerifications(query: Query<'listVerifications'>): S['VerificationList'];
    getVerification(verificationId: string): S['Verification'];
    userActivities(verificationId: string): S['UserActivityList'];
    verificationLinkedByDevice(verificationId: string): S['VerificationLinkedByDevice'];
    verificationWebhooks(verificationId: string, paging: Paging): S['VerificationWebhookRecordList'];
    listUsers(query: Query<'listUsers'>): S['UserList'];
    getUser(userId: string): S['UserDetails'];
    userLinkedByDevice(userId: string): S['UserLinkedByDevice'];
    userShares(userId: string): S['Shares'];
    createExternalUsers(body: S['ExternalUsersCreate']): S['ExternalUsersResult'];
    userFingerprints(userId: string, paging: Paging): S['FingerprintList'];
    userWebhooks(userId: string, paging: Paging): S['UserWebhookRecordList'];
    openLink(verificationId: string, options?: {
        deviceId?: string;
    }): S['Verification'];
    enterName(verificationId: string, name: {
        firstName: string;
        lastName: string;
    }): S['Verification'];
    enterDateOfBirth(verificationId: string, input: {
        dateOfBirth: string;
    }): S['Verification'];
    verifyPhone(verificationId: string, phoneNumber?: string): S['Verification'];
    scan(verificationId: string, input: ScanInput): S['Verification'];
    acceptReview(verificationId: string): S['Verification'];
    expire(verificationId: string): S['Verification'];
    expireDue(): void;
    markShareholder(userId: string, input: {
        sharesNumber: number;
    }): S['Shares'];
    recordDelivery(eventId: string, result: DeliveryResult): boolean;
    verificationIdForToken(token: string): string | undefined;
    reset(): void;
    seed(): SeedResult;
    private clock;
    private nowIso;
    /** Every read or change first lets time do its work. */
    private verification;
    private user;
    private inSession;
    /**
     * After the end user entered data: a waiting session may now complete; a
     * completed one passes the data to its user (`user.updated`, as in the
     * "New user" sequence).
     */
    private afterInput;
    private missingInput;
    /** `collectedRequirements` follow from what was entered and scanned; `verified` means the scanned document confirms it. */
    private refreshCollected;
    /** The sandbox's stand-in for the face model: the user holding one of the session's phone numbers. */
    private matchingUser;
    private userWithPhone;
    /** Completion, in the documented order: `verification.updated`, then `user.created` or `user.merged`, then `shareholder.verified`. */
    private complete;
    private newUser;
    private attach;
    /** Rule 2 of operation 6: data another completed verification of the user also provides stays. */
    private detach;
    private attached;
    private devicesOf;
    /** Every status change emits `verification.updated` (source, States notes). */
    private setStatus;
    /** Indexes a verification that is open or in review (see the fields). */
    private track;
    private untrack;
    private envelope;
    private emitVerification;
    private emitUser;
    /** Records the webhook in the history it belongs to, then hands it to the HTTP layer. */
    private emit;
}
export {};
