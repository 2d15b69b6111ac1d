import type { components } from '../../generated/types/partner.js';
import type { EmittedEvent } from './partner-api.js';
import type { DeliveryResult } from './partner-control.js';
type S = components['schemas'];
export declare class WebhookLog {
    private readonly newId;
    private readonly now;
    private entries;
    constructor(newId: () => string, now: () => string);
    /** `metadata` is the verification's own, kept on verification records only. */
    add(emitted: EmittedEvent, metadata?: Record<string, unknown>): void;
    forVerification(verificationId: string): S['VerificationWebhookRecord'][];
    forUser(userId: string): S['UserWebhookRecord'][];
    /** False when no record holds the event (for example after a reset). */
    recordDelivery(eventId: string, result: DeliveryResult): boolean;
}
export {};
