import { isKnownWebhookEvent, type ReceivedWebhookEvent, type WebhookEvent } from '../../src/webhooks/index.js';

/** The sandbox sends only the documented event types: anything else fails the test. */
export function knownEvent(event: ReceivedWebhookEvent): WebhookEvent {
  if (!isKnownWebhookEvent(event)) throw new Error(`the sandbox sent an undocumented event type: ${event.eventType}`);
  return event;
}
