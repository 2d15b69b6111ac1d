// The documented webhook examples, read from the bundled partner document
// (Node only): what `webhooks send` and `webhooks check` send.
import type { Json } from '../contract/json.js';
import { resolveRef } from '../contract/json-pointer.js';
import { readBundledDocument } from '../package-files.js';
import type { WebhookEvent, WebhookEventType } from './events.js';

/** The documented example of every webhook of the partner document, in its order, keyed by event type. */
export function documentedWebhookExamples(): Map<WebhookEventType, WebhookEvent> {
  const doc = readBundledDocument('partner');
  const resolve = (node: unknown) => resolveRef(doc, node);
  const examples = new Map<WebhookEventType, WebhookEvent>();
  for (const [eventType, item] of Object.entries<Json>(doc.webhooks ?? {})) {
    const media = resolve(item).post.requestBody.content['application/json'];
    const first = Object.values<Json>(media.examples ?? {})[0];
    examples.set(eventType as WebhookEventType, resolve(first).value);
  }
  return examples;
}

const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

/**
 * The documented examples with every UUID replaced by a new one, the same old id by the same new id: they still name
 * one another's records, and a receiver's store takes each run's events as new, not as repeats of an earlier run.
 */
export function documentedWebhookExamplesWithFreshIds(): Map<WebhookEventType, WebhookEvent> {
  const renamed = new Map<string, string>();
  // A reviver is handed every value of the copy: each UUID becomes its new id.
  const rename = (_name: string, value: unknown) =>
    typeof value === 'string' && UUID.test(value)
      ? (renamed.get(value) ?? renamed.set(value, crypto.randomUUID()).get(value))
      : value;
  const examples = documentedWebhookExamples();
  for (const [eventType, event] of examples) examples.set(eventType, JSON.parse(JSON.stringify(event), rename));
  return examples;
}
