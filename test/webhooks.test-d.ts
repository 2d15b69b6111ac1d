// Type tests: a parsed webhook is a union on eventType whose data narrows.
import { describe, expectTypeOf, it } from 'vitest';
import {
  isKnownWebhookEvent,
  parseWebhookEvent,
  verifyWebhookRequest,
  verifyWebhookRequestBody,
  type ReceivedWebhookEvent,
  type UnknownWebhookEvent,
  type WebhookEvent,
  type ShareholderEventData,
  type UserEventData,
  type VerificationEventData,
  type WebhookEventOf,
  type WebhookEventType,
} from '../src/webhooks/index.js';

describe('webhook types', () => {
  it('verifies a Request without parsing to its text or null', () => {
    expectTypeOf(verifyWebhookRequestBody).parameters.toEqualTypeOf<[Request, string | readonly string[]]>();
    expectTypeOf(verifyWebhookRequestBody).returns.toEqualTypeOf<Promise<string | null>>();
  });

  it('narrows data on eventType', () => {
    const event = parseWebhookEvent('{}', 'sig', 'key');
    if (event.eventType === 'user.created') {
      expectTypeOf(event.data).toEqualTypeOf<UserEventData>();
      expectTypeOf(event.dataType).toEqualTypeOf<'user'>();
      // @ts-expect-error user data has no verificationId
      event.data.verificationId;
    }
    if (event.eventType === 'verification.updated') {
      expectTypeOf(event.data).toEqualTypeOf<VerificationEventData>();
      expectTypeOf(event.data.verificationId).toBeString();
    }
    expectTypeOf<'user.deleted'>().toExtend<WebhookEventType>();
    expectTypeOf<WebhookEventOf<'user.deleted'>['dataType']>().toEqualTypeOf<'user'>();
    // @ts-expect-error not an event type
    expectTypeOf<WebhookEventOf<'user.exploded'>>();
    if (event.eventType === 'shareholder.verified') {
      expectTypeOf(event.data).toEqualTypeOf<ShareholderEventData>();
      expectTypeOf(event.data.isShareholder).toEqualTypeOf<true>();
    }
  });

  it('types a field the documents do not state is sent as possibly absent or null, and the stated ones as sent', () => {
    expectTypeOf<VerificationEventData['verificationId']>().toEqualTypeOf<string>();
    expectTypeOf<VerificationEventData['updatedAt']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<VerificationEventData['reason']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<WebhookEventOf<'verification.created'>['data']['updatedAt']>().toEqualTypeOf<
      string | null | undefined
    >();
    expectTypeOf<UserEventData['userId']>().toEqualTypeOf<string>();
    expectTypeOf<UserEventData['estimatedAge']>().toExtend<string | null | undefined>();
    expectTypeOf<undefined>().toExtend<UserEventData['estimatedAge']>();
    expectTypeOf<null>().toExtend<UserEventData['estimatedAge']>();
    expectTypeOf<ShareholderEventData['isShareholder']>().toEqualTypeOf<true>();
  });

  it('leaves an event type added later to a default branch, whose eventType is a string', async () => {
    const event = await verifyWebhookRequest(new Request('http://receiver.test/'), 'key');
    expectTypeOf(event).toEqualTypeOf<ReceivedWebhookEvent>();
    switch (event.eventType) {
      case 'user.deleted':
        expectTypeOf(event.data).toEqualTypeOf<UserEventData>();
        break;
      case 'verification.created':
        expectTypeOf(event.data.status).toEqualTypeOf<'created'>();
        break;
      case 'verification.updated':
        expectTypeOf(event.data).toEqualTypeOf<VerificationEventData>();
        break;
      default:
        expectTypeOf(event.eventType).toBeString();
        expectTypeOf(event.eventId).toBeString();
    }
    if (isKnownWebhookEvent(event)) expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    else expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>();
  });
});
