// What the layers above the partner engine meet: the announced webhook, the
// results of delivery and seeding, and the rule a webhook address meets.
import { hasCredentials } from '../../web-address.js';
import type { WebhookEvent } from '../../webhooks/events.js';

export { SandboxError } from '../common/sandbox-error.js';

/** How a change of the sandbox is announced: the webhook, and which histories keep its record. */
export interface EmittedEvent {
  /** The webhook; a new copy parsed from `text` at each read. */
  readonly event: WebhookEvent;
  /** The webhook's JSON text: what is signed and sent, and what the histories keep (S26). */
  readonly text: string;
  readonly eventId: string;
  readonly verificationId?: string;
  readonly userId?: string;
}

/** An event from its JSON text, serialized once when emitted so every attempt sends the same bytes. */
export function emittedEvent(text: string, eventId: string, verificationId?: string, userId?: string): EmittedEvent {
  return {
    text,
    eventId,
    verificationId,
    userId,
    get event() {
      return JSON.parse(text) as WebhookEvent;
    },
  };
}

/** Result of one delivery attempt of a recorded webhook. */
export type DeliveryResult = { success: boolean; retryAt: string | null; reason?: string };

/** The partner's webhookUrl while none is set: a reserved name (RFC 2606) that receives nothing; put back, still none. */
export const NO_WEBHOOK_URL = 'https://partner.invalid/webhooks';

/**
 * Why a webhook address is refused beyond the rule on any web address (src/web-address.ts): a user or password in
 * it would go with every webhook into every log on the way; X-SIGNATURE proves the sender.
 */
export const webhookUrlRefusal = (webhookUrl: string): string | undefined =>
  hasCredentials(webhookUrl)
    ? 'a webhook address must not carry a user or password (https://user:password@…): webhooks prove they come from the service by X-SIGNATURE; drop the credentials from the address and check X-SIGNATURE in the receiver'
    : undefined;
