// The webhook histories (operations 11 and 18): one record per webhook and
// history, updated in place by deliveries ("no new record is made").
import { emittedEvent, SandboxError, type DeliveryResult, type EmittedEvent } from './api.js';
import { pageOf, type Paging } from './paging.js';
import { filtered, type ListFilters } from '../common/list-filters.js';
import type { WebhookEntry } from './records.js';
import { nowIso, putWebhook, user, verification, type PartnerStore } from './store.js';
import { jsonCopy } from '../common/json-copy.js';

const ownerOf = (e: WebhookEntry) => (e.kind === 'verification' ? e.record.verificationId : e.record.userId);

/** A page of the history of a verification or user that exists; each record a copy, with the payload parsed into its place after `success`. */
export function historyPage<R, Query extends Paging>(
  store: PartnerStore,
  kind: WebhookEntry['kind'],
  ownerId: string,
  query: Query,
  filters: NoInfer<ListFilters<Query, WebhookEntry>>,
): { webhooks: R[]; count: number } {
  (kind === 'verification' ? verification : user)(store, ownerId);
  const owned = [...store.webhooks.values()].filter((e) => e.kind === kind && ownerOf(e) === ownerId);
  const { items, count } = pageOf(filtered(owned, query, filters), query);
  const webhooks = items.map((entry) => {
    const { id, success, ...rest } = jsonCopy(entry.record);
    return { id, success, payload: JSON.parse(entry.text), ...rest } as R;
  });
  return { webhooks, count };
}

/** Updates the event's records; false when none holds it (for example after a reset). */
export function recordDelivery(store: PartnerStore, eventId: string, result: DeliveryResult): boolean {
  const entries = (store.webhooksByEvent.get(eventId) ?? []).map((id) => store.webhooks.get(id)!);
  const at = nowIso(store);
  for (const entry of entries) {
    const { record } = entry;
    Object.assign(record, { success: result.success, retryAt: result.retryAt, updatedAt: at });
    if (result.reason !== undefined) record.reason = result.reason;
    else if (result.success) delete record.reason;
    // Pending until an attempt succeeds: a resent event whose attempt failed is retried after a restart too.
    entry.pending = !result.success;
    putWebhook(store, entry);
  }
  return entries.length > 0;
}

/** The webhooks not yet delivered with success, in the order they were emitted (delivery resumes after a restart). */
export function pendingEvents(store: PartnerStore): EmittedEvent[] {
  const byEvent = new Map<string, { text: string; verificationId?: string; userId?: string }>();
  for (const entry of store.webhooks.values()) {
    if (!entry.pending) continue;
    const event = byEvent.get(entry.eventId) ?? { text: entry.text };
    event[entry.kind === 'verification' ? 'verificationId' : 'userId'] = ownerOf(entry);
    byEvent.set(entry.eventId, event);
  }
  return [...byEvent].map(([eventId, e]) => emittedEvent(e.text, eventId, e.verificationId, e.userId));
}

/** A webhook the histories hold, to send again (`POST /_sandbox/webhooks/{eventId}/resend`); 404 when none does. */
export function recordedEvent(store: PartnerStore, eventId: string): EmittedEvent {
  const entry = (store.webhooksByEvent.get(eventId) ?? []).map((id) => store.webhooks.get(id)!)[0];
  if (!entry) {
    throw new SandboxError(
      404,
      `No webhook has eventId ${eventId}; the histories list the sent ones (GET /verifications/{verificationId}/webhooks, GET /users/{userId}/webhooks), and a reset empties them`,
    );
  }
  return emittedEvent(entry.text, eventId);
}
