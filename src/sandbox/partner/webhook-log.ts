// The per-verification and per-user webhook histories (operations 11 and 18).
// One record per emitted webhook; deliveries update it in place, as the
// source says retries do ("no new record is made"). Indexed by verification,
// user and event, so no lookup scans the whole history; each index is made
// the first time it is asked for, so a sandbox that never reads histories or
// sends webhooks keeps none.
import type { components } from '../../../generated/types/partner.js';
import { SerializedEvent, type EmittedEvent } from './api.js';
import type { DeliveryResult } from './control.js';
import { jsonCopy } from '../common/json-copy.js';

type S = components['schemas'];
type VerificationRecord = S['VerificationWebhookRecord'];
type UserRecord = S['UserWebhookRecord'];

/** A record as --state snapshots save it (the payload as JSON). */
export type WebhookLogEntry = { eventId: string } & ({ kind: 'verification'; record: VerificationRecord } | { kind: 'user'; record: UserRecord });

/** A record as the log keeps it: the payload is the event's JSON text, as it was sent. */
type Kept = { eventId: string; text: string } & (
  | { kind: 'verification'; record: Omit<VerificationRecord, 'payload'> }
  | { kind: 'user'; record: Omit<UserRecord, 'payload'> }
);

/** The record as the API answers it: a copy, with the payload parsed into its place after `success`. */
function answered<R extends { id: string; success: boolean }>(record: R, text: string): R & { payload: unknown } {
  const { id, success, ...rest } = jsonCopy(record);
  return { id, success, payload: JSON.parse(text), ...rest } as unknown as R & { payload: unknown };
}

export class WebhookLog {
  private readonly entries: Kept[] = [];
  /** Records by verification and by user: made on the first history read, then kept up to date. */
  private owners?: { verification: Map<string, Kept[]>; user: Map<string, Kept[]> };
  /**
   * Records by event id, for deliveries: made on first use (a sandbox with
   * no webhookUrl never asks), then kept up to date. Most events have one
   * record; those with two (a user's and a verification's) keep an array.
   */
  private byEvent?: Map<string, Kept | Kept[]>;

  constructor(
    private readonly newId: () => string,
    private readonly now: () => string,
    saved: Iterable<WebhookLogEntry> = [],
  ) {
    for (const { eventId, kind, record } of saved) {
      const { payload, ...rest } = record;
      this.push({ eventId, text: JSON.stringify(payload), kind, record: rest } as Kept);
    }
  }

  /** `at` is the event's `createdAt`; `metadata` is the verification's own, kept on verification records only. */
  add(emitted: EmittedEvent, at: string, metadata: Record<string, unknown> = {}): void {
    const { eventId, text } = emitted;
    if (emitted.verificationId !== undefined) {
      this.push({
        eventId,
        text,
        kind: 'verification',
        // `metadata` is set when the verification is created and never changed, so the record shares it.
        record: { id: this.newId(), success: false, retryAt: null, createdAt: at, updatedAt: at, verificationId: emitted.verificationId, type: 'verification', metadata },
      });
    }
    if (emitted.userId !== undefined) {
      this.push({ eventId, text, kind: 'user', record: { id: this.newId(), success: false, retryAt: null, createdAt: at, updatedAt: at, userId: emitted.userId, type: 'user' } });
    }
  }

  forVerification(verificationId: string): VerificationRecord[] {
    return (this.byOwner().verification.get(verificationId) ?? []).map((e) => answered(e.record, e.text) as VerificationRecord);
  }

  forUser(userId: string): UserRecord[] {
    return (this.byOwner().user.get(userId) ?? []).map((e) => answered(e.record, e.text) as UserRecord);
  }

  /** The emitted event with this id, for a delivery still pending after a restart. */
  emitted(eventId: string): EmittedEvent | undefined {
    const hits = this.hits(eventId);
    if (hits.length === 0) return undefined;
    const verification = hits.find((e) => e.kind === 'verification');
    const user = hits.find((e) => e.kind === 'user');
    return new SerializedEvent(
      hits[0].text,
      eventId,
      verification?.kind === 'verification' ? verification.record.verificationId : undefined,
      user?.kind === 'user' ? user.record.userId : undefined,
    );
  }

  /** False when no record holds the event (for example after a reset). */
  recordDelivery(eventId: string, result: DeliveryResult): boolean {
    const hits = this.hits(eventId);
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

  /** Every record in the snapshot's form, made one at a time as a snapshot is written. */
  *saved(): Iterable<WebhookLogEntry> {
    for (const entry of this.entries) {
      yield { eventId: entry.eventId, kind: entry.kind, record: answered(entry.record, entry.text) } as WebhookLogEntry;
    }
  }

  private hits(eventId: string): Kept[] {
    if (!this.byEvent) {
      this.byEvent = new Map();
      for (const entry of this.entries) this.indexEvent(entry);
    }
    const at = this.byEvent.get(eventId);
    return at === undefined ? [] : Array.isArray(at) ? at : [at];
  }

  private push(entry: Kept): void {
    this.entries.push(entry);
    if (this.owners) this.indexOwner(entry);
    if (this.byEvent) this.indexEvent(entry);
  }

  private byOwner(): NonNullable<WebhookLog['owners']> {
    if (!this.owners) {
      this.owners = { verification: new Map(), user: new Map() };
      for (const entry of this.entries) this.indexOwner(entry);
    }
    return this.owners;
  }

  private indexOwner(entry: Kept): void {
    const [owners, owner] = entry.kind === 'verification' ? [this.owners!.verification, entry.record.verificationId] : [this.owners!.user, entry.record.userId];
    const list = owners.get(owner);
    if (list) list.push(entry);
    else owners.set(owner, [entry]);
  }

  private indexEvent(entry: Kept): void {
    const same = this.byEvent!.get(entry.eventId);
    this.byEvent!.set(entry.eventId, same === undefined ? entry : Array.isArray(same) ? [...same, entry] : [same, entry]);
  }
}
