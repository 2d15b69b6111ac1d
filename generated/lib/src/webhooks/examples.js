import { resolveRef } from '../contract/json-pointer.js';
import { readBundledDocument } from '../package-files.js';
/**
 * The documented example of every webhook of the partner document, in the
 * document's order, keyed by event type.
 */
export function documentedWebhookExamples() {
    const doc = readBundledDocument('partner');
    const resolve = (node) => resolveRef(doc, node);
    const examples = new Map();
    for (const [eventType, item] of Object.entries(doc.webhooks ?? {})) {
        const media = resolve(item).post.requestBody.content['application/json'];
        const first = Object.values(media.examples ?? {})[0];
        examples.set(eventType, resolve(first).value);
    }
    return examples;
}
