import type { components } from '../../generated/types/partner.js';

type Schemas = components['schemas'];

/** Any webhook the service sends: a union discriminated by `eventType`. */
export type WebhookEvent = Schemas['WebhookEvent'];
/** The seven event types. */
export type WebhookEventType = WebhookEvent['eventType'];
/** The event of one type, e.g. `WebhookEventOf<'user.created'>`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { eventType: T }>;
/** The three data types (`verification`, `user`, `shareholder`). */
export type WebhookDataType = WebhookEvent['dataType'];

export type VerificationCreatedEvent = Schemas['VerificationCreatedEvent'];
export type VerificationUpdatedEvent = Schemas['VerificationUpdatedEvent'];
export type UserCreatedEvent = Schemas['UserCreatedEvent'];
export type UserMergedEvent = Schemas['UserMergedEvent'];
export type UserUpdatedEvent = Schemas['UserUpdatedEvent'];
export type UserDeletedEvent = Schemas['UserDeletedEvent'];
export type ShareholderVerifiedEvent = Schemas['ShareholderVerifiedEvent'];

/** `data` of the `verification` events. */
export type VerificationEventData = Schemas['VerificationEventData'];
/** `data` of the `user` events. */
export type UserEventData = Schemas['UserEventData'];
/** `data` of `shareholder.verified`. */
export type ShareholderEventData = Schemas['ShareholderEventData'];
