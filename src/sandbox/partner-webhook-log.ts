// The per-verification and per-user webhook histories (operations 11 and 18).
// One record per emitted webhook; deliveries update it in place, as the
// source says retries do ("no new record is made").
import type { components } from '../../generated/types/partner.js';
import type { EmittedEvent } from './partner-api.js';
import type { DeliveryResult } from './partner-control.js';

type S = components['schemas'];
type Stored = { eventId: string } & (
  | { kind: 'verification'; record: S['VerificationWebhookRecord'] }
  | { kind: 'user'; record: S['UserWebhookRecord'] }
);

export class WebhookLog {
  private entries: Stored[] = [];

  constructor(
    private readonly newId: () => string,
    private readonly now: () => string,
  ) {}

  /** `metadata` is the verification's own, kept on verification records only. */
  add(emitted: EmittedEvent, metadata: Record<string, unknown> = {}): void {
    const { event } = emitted;
    const at = event.createdAt;
    // The event is never changed after it is emitted (see PartnerState.emit).
    const common = { id: this.newId(), success: false, payload: event, retryAt: null, createdAt: at, updatedAt: at };
    if (emitted.verificationId !== undefined) {
      this.entries.push({
        eventId: event.eventId,
        kind: 'verification',
        record: { ...common, verificationId: emitted.verificationId, type: 'verification', metadata: { ...metadata } },
      });
    }
    if (emitted.userId !== undefined) {
      this.entries.push({
        eventId: event.eventId,
        kind: 'user',
        record: { ...common, id: emitted.verificationId !== undefined ? this.newId() : common.id, userId: emitted.userId, type: 'user' },
      });
    }
  }

  forVerification(verificationId: string): S['VerificationWebhookRecord'][] {
    return this.entries.flatMap((e) =>
      e.kind === 'verification' && e.record.verificationId === verificationId ? [structuredClone(e.record)] : [],
    );
  }

  forUser(userId: string): S['UserWebhookRecord'][] {
    return this.entries.flatMap((e) => (e.kind === 'user' && e.record.userId === userId ? [structuredClone(e.record)] : []));
  }

  /** False when no record holds the event (for example after a reset). */
  recordDelivery(eventId: string, result: DeliveryResult): boolean {
    const hits = this.entries.filter((e) => e.eventId === eventId);
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
}
