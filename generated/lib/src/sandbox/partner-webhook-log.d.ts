import type { components } from '../../generated/types/partner.js';
import type { EmittedEvent } from './partner-api.js';
import type { DeliveryResult } from './partner-control.js';
type S = components['schemas'];
export type WebhookLogEntry = {
    eventId: string;
} & ({
    kind: 'verification';
    record: S['VerificationWebhookRecord'];
} | {
    kind: 'user';
    record: S['UserWebhookRecord'];
});
export declare class WebhookLog {
    private readonly newId;
    private readonly now;
    private readonly entries;
    private readonly byOwner;
    private readonly byEvent;
    constructor(newId: () => string, now: () => string, saved?: readonly WebhookLogEntry[]);
    /** `metadata` is the verification's own, kept on verification records only. */
    add(emitted: EmittedEvent, metadata?: Record<string, unknown>): void;
    forVerification(verificationId: string): S['VerificationWebhookRecord'][];
    forUser(userId: string): S['UserWebhookRecord'][];
    /** The emitted event with this id, for a delivery still pending after a restart. */
    emitted(eventId: string): EmittedEvent | undefined;
    /** False when no record holds the event (for example after a reset). */
    recordDelivery(eventId: string, result: DeliveryResult): boolean;
    saved(): readonly WebhookLogEntry[];
    private push;
}
export {};
