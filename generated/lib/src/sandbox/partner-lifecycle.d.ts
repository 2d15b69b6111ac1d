import type { components } from '../../generated/types/partner.js';
import type { DeliveryResult, PartnerControl, ScanInput, SeedResult } from './partner-control.js';
import type { PersonName, StoredUser, StoredVerification } from './partner-records.js';
import { PartnerStore } from './partner-store.js';
type S = components['schemas'];
export declare const sameName: (a: PersonName | undefined, b: PersonName | undefined) => boolean;
export declare abstract class PartnerLifecycle extends PartnerStore implements PartnerControl {
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
    webhookTarget(): string | undefined;
    seed(): SeedResult;
    protected inSession(verificationId: string): StoredVerification;
    /**
     * After the end user entered data: a waiting session may now complete; a
     * completed one passes the data to its user (`user.updated`, as in the
     * "New user" sequence).
     */
    private afterInput;
    private missingInput;
    /** `collectedRequirements` follow from what was entered and scanned; `verified` means the scanned document confirms it. */
    protected refreshCollected(v: StoredVerification): void;
    /** The sandbox's stand-in for the face model: the user holding one of the session's phone numbers. */
    private matchingUser;
    /** Completion, in the documented order: `verification.updated`, then `user.created` or `user.merged`, then `shareholder.verified`. */
    private complete;
    private attach;
    /** Rule 2 of operation 6: data another completed verification of the user also provides stays. */
    protected detach(user: StoredUser, v: StoredVerification): void;
    protected attached(user: StoredUser): StoredVerification[];
    protected devicesOf(user: StoredUser): Set<string>;
}
export declare function currentName(user: StoredUser): PersonName | undefined;
export {};
