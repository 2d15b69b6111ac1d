import type { WebhookEvent, WebhookEventType } from './events.js';
/**
 * The documented example of every webhook of the partner document, in the
 * document's order, keyed by event type.
 */
export declare function documentedWebhookExamples(): Map<WebhookEventType, WebhookEvent>;
