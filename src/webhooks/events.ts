import type { components } from '../../generated/types/partner.js';

type Schemas = components['schemas'];

/** Any webhook the service sends: a union discriminated by `eventType`. */
export type WebhookEvent = Schemas['WebhookEvent'];
/**
 * A correctly signed webhook of an event type added after this version of the package: only its envelope is checked.
 * Answer 200 and ignore it (or log it); the service retries anything else.
 */
export interface UnknownWebhookEvent {
  eventId: string;
  eventType: string;
  createdAt: string;
  /*
   * `dataType` (a string) and `data` (an object) as sent. Typed `never`
   * because a `string` eventType matches every `case`: any other type here
   * would widen a known event's `dataType` and `data` in its `case` branch.
   * Read them as `unknown` when logging: `event.data as unknown`.
   */
  dataType: never;
  data: never;
}

/** What `parseWebhookEvent` returns: a known event, or one added since (`default:` branch). */
export type ReceivedWebhookEvent = WebhookEvent | UnknownWebhookEvent;

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
