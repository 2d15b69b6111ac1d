import { resolveRef } from '../contract/json-pointer.js';
import { readBundledDocument } from '../package-files.js';
import type { WebhookEvent, WebhookEventType } from './events.js';

/**
 * The documented example of every webhook of the partner document, in the
 * document's order, keyed by event type.
 */
export function documentedWebhookExamples(): Map<WebhookEventType, WebhookEvent> {
  const doc = readBundledDocument('partner');
  const resolve = (node: unknown) => resolveRef(doc, node);
  const examples = new Map<WebhookEventType, WebhookEvent>();
  for (const [eventType, item] of Object.entries<any>(doc.webhooks ?? {})) {
    const media = resolve(item).post.requestBody.content['application/json'];
    const first = Object.values<any>(media.examples ?? {})[0];
    examples.set(eventType as WebhookEventType, resolve(first).value);
  }
  return examples;
}
