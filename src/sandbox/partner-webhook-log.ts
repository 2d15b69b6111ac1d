// The per-verification and per-user webhook histories (operations 11 and 18).
// One record per emitted webhook; deliveries update it in place, as the
// source says retries do ("no new record is made"). Indexed by verification,
// user and event, so no lookup scans the whole history.
import type { components } from '../../generated/types/partner.js';
import type { EmittedEvent } from './partner-api.js';
import type { DeliveryResult } from './partner-control.js';
import { jsonCopy } from './json-copy.js';

type S = components['schemas'];
export type WebhookLogEntry = { eventId: string } & (
  | { kind: 'verification'; record: S['VerificationWebhookRecord'] }
  | { kind: 'user'; record: S['UserWebhookRecord'] }
);

export class WebhookLog {
  private readonly entries: WebhookLogEntry[] = [];
  private readonly byOwner = new Map<string, WebhookLogEntry[]>();
  private readonly byEvent = new Map<string, WebhookLogEntry[]>();

  constructor(
    private readonly newId: () => string,
    private readonly now: () => string,
    saved: readonly WebhookLogEntry[] = [],
  ) {
    for (const entry of saved) this.push(entry);
  }

  /** `metadata` is the verification's own, kept on verification records only. */
  add(emitted: EmittedEvent, metadata: Record<string, unknown> = {}): void {
    const { event } = emitted;
    const at = event.createdAt;
    // The event is never changed after it is emitted (see PartnerStore.emit).
    const common = { id: this.newId(), success: false, payload: event, retryAt: null, createdAt: at, updatedAt: at };
    if (emitted.verificationId !== undefined) {
      this.push({
        eventId: event.eventId,
        kind: 'verification',
        record: { ...common, verificationId: emitted.verificationId, type: 'verification', metadata: { ...metadata } },
      });
    }
    if (emitted.userId !== undefined) {
      this.push({
        eventId: event.eventId,
        kind: 'user',
        record: { ...common, id: emitted.verificationId !== undefined ? this.newId() : common.id, userId: emitted.userId, type: 'user' },
      });
    }
  }

  forVerification(verificationId: string): S['VerificationWebhookRecord'][] {
    return (this.byOwner.get(`v:${verificationId}`) ?? []).map((e) => jsonCopy(e.record) as S['VerificationWebhookRecord']);
  }

  forUser(userId: string): S['UserWebhookRecord'][] {
    return (this.byOwner.get(`u:${userId}`) ?? []).map((e) => jsonCopy(e.record) as S['UserWebhookRecord']);
  }

  /** The emitted event with this id, for a delivery still pending after a restart. */
  emitted(eventId: string): EmittedEvent | undefined {
    const hits = this.byEvent.get(eventId);
    if (!hits) return undefined;
    const emitted: EmittedEvent = { event: hits[0].record.payload as EmittedEvent['event'] };
    for (const e of hits) {
      if (e.kind === 'verification') emitted.verificationId = e.record.verificationId;
      else emitted.userId = e.record.userId;
    }
    return emitted;
  }

  /** False when no record holds the event (for example after a reset). */
  recordDelivery(eventId: string, result: DeliveryResult): boolean {
    const hits = this.byEvent.get(eventId) ?? [];
    const at = this.now();
    for (const { record } of hits) {
      record.success = result.success;
      record.retryAt = result.retryAt;
      record.updatedAt = at;
      if (result.reason !== undefined) record.reason = result.reason;
      else if (result.success) delete record.reason;
    }
    return hits.length > 0;
  }

  saved(): readonly WebhookLogEntry[] {
    return this.entries;
  }

  private push(entry: WebhookLogEntry): void {
    this.entries.push(entry);
    const owner = entry.kind === 'verification' ? `v:${entry.record.verificationId}` : `u:${entry.record.userId}`;
    for (const [map, key] of [[this.byOwner, owner], [this.byEvent, entry.eventId]] as const) {
      const list = map.get(key);
      if (list) list.push(entry);
      else map.set(key, [entry]);
    }
  }
}
