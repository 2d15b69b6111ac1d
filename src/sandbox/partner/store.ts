// What the partner sandbox stores and how it is found again: the partner,
// its keys, verifications and users with their indexes, the webhook
// histories, and the saved form of all of it (for --state). The lifecycle
// (lifecycle.ts) and the partner operations (state.ts) build
// on it.
import type { components } from '../../../generated/types/partner.js';
import type { WebhookEvent } from '../../webhooks/events.js';
import type { Clock } from '../common/clock.js';
import { SandboxError, SerializedEvent, type EmittedEvent } from './api.js';
import type { StoredUser, StoredVerification, VerificationStatus } from './records.js';
import { verificationEventData, userEventData } from './views.js';
import { SandboxRandom } from '../common/random.js';
import { ExpiryQueue, KeyIndex } from './record-index.js';
import { WebhookLog, type WebhookLogEntry } from './webhook-log.js';

type S = components['schemas'];

export interface PartnerStateOptions {
  clock: Clock;
  /** The first active `X-Auth-Key`; `reset()` returns to it. */
  authKey: string;
  /** Where webhooks go; absent means none configured until `PUT /partners`. */
  webhookUrl?: string;
  /** Base address of the sandbox, used in verification `url`s. */
  publicUrl: string;
  onEvent: (e: EmittedEvent) => void;
  /** Must return UUIDs: ids of events, verifications and users all come from it. */
  newId?: () => string;
  /** Every random value the state draws; saved with --state so replays draw the same. */
  random?: SandboxRandom;
}

/** The whole partner state as JSON (--state snapshots); indexes are rebuilt from it. */
export interface PartnerSnapshot {
  webhookUrl?: string;
  partner: S['Partner'];
  authKeys: S['AuthKey'][];
  verifications: StoredVerification[];
  users: StoredUser[];
  fingerprintIds: [string, string][];
  log: Iterable<WebhookLogEntry>;
  nameTurn: number;
  nextUserSeq: number;
}

/** Statuses in which `validTo` still matters (source: "`validTo` reached" rows). */
export const EXPIRABLE: ReadonlySet<VerificationStatus> = new Set(['created', 'started', 'waitingForUserInput']);
/** Rule 2 of operation 5 calls these "open": one phone number has at most one open verification. */
export const OPEN: ReadonlySet<VerificationStatus> = new Set(['created', 'started']);
/** What a new create may close or conflict with. */
export const UNFINISHED: ReadonlySet<VerificationStatus> = new Set([...EXPIRABLE, 'inReview']);
/** Reserved top-level domain (RFC 2606): a placeholder that can never receive a webhook. */
const UNSET_WEBHOOK_URL = 'https://partner.invalid/webhooks';

export class PartnerStore {
  protected readonly rand: SandboxRandom;
  protected readonly newId: () => string;
  protected publicUrl: string;
  protected webhookUrl: string | undefined;
  protected partner!: S['Partner'];
  protected authKeys: S['AuthKey'][] = [];
  /** Creation order; `seq` is the position. */
  protected order: StoredVerification[] = [];
  protected verifications = new Map<string, StoredVerification>();
  protected users = new Map<string, StoredUser>();
  /** Users in creation order (deleted ones leave it). */
  protected userOrder: StoredUser[] = [];
  protected nextUserSeq = 0;
  protected fingerprintIds = new Map<string, string>();
  protected nameTurn = 0;
  protected log!: WebhookLog;
  // Indexes: a create, a lookup or a list costs the same with 100,000 stored as with 100.
  protected unfinishedByPhone = new KeyIndex<string, StoredVerification>('unfinishedByPhone');
  /** Verifications that may expire, by validTo (record-index.ts). */
  protected expiries = new ExpiryQueue<StoredVerification>();
  protected byPhone = new KeyIndex<string, StoredVerification>('byPhone');
  protected byExternalUserId = new KeyIndex<string, StoredVerification>('byExternalUserId');
  protected byUserId = new KeyIndex<string, StoredVerification>('byUserId');
  protected byStatus = new KeyIndex<VerificationStatus, StoredVerification>('byStatus');
  protected byDevice = new KeyIndex<string, StoredVerification>('byDevice');
  /** Session tokens: made on first use (only the control API's session links ask), then kept up to date. */
  protected byToken?: Map<string, StoredVerification>;
  /** Whether `createdAt` rises with `seq`, so a createdAt window is a range of `order`. */
  protected createdInOrder = true;
  protected usersByPhone = new KeyIndex<string, StoredUser>('usersByPhone');
  protected usersByExternalUserId = new KeyIndex<string, StoredUser>('usersByExternalUserId');
  protected shareholders = new KeyIndex<boolean, StoredUser>('shareholders');

  constructor(protected readonly options: PartnerStateOptions) {
    this.rand = options.random ?? new SandboxRandom();
    this.newId = options.newId ?? (() => this.rand.uuid());
    this.publicUrl = options.publicUrl.replace(/\/+$/, '');
    this.reset();
  }

  reset(): void {
    this.load({
      webhookUrl: this.options.webhookUrl,
      partner: { id: '', webhookUrl: '', name: 'Sandbox Partner', createdAt: '', updatedAt: '' },
      authKeys: [],
      verifications: [],
      users: [],
      fingerprintIds: [],
      log: [],
      nameTurn: 0,
      nextUserSeq: 0,
    });
    const now = this.nowIso();
    this.partner = { id: this.newId(), webhookUrl: this.webhookUrl ?? UNSET_WEBHOOK_URL, name: 'Sandbox Partner', createdAt: now, updatedAt: now };
    this.authKeys = [{ id: this.newId(), key: this.options.authKey, active: true, createdAt: now, updatedAt: now }];
  }

  /** The base of new verification `url`s (a replay uses the one of the process that made the change). */
  usePublicUrl(url: string): void {
    this.publicUrl = url.replace(/\/+$/, '');
  }

  /** The state as JSON-ready data; shares objects with the live state, so serialize it at once. */
  snapshot(): PartnerSnapshot {
    return {
      webhookUrl: this.webhookUrl,
      partner: this.partner,
      authKeys: this.authKeys,
      verifications: this.order,
      users: this.userOrder,
      fingerprintIds: [...this.fingerprintIds],
      log: this.log.saved(),
      nameTurn: this.nameTurn,
      nextUserSeq: this.nextUserSeq,
    };
  }

  /** Replaces the whole state with a snapshot and rebuilds every index. */
  load(saved: PartnerSnapshot): void {
    this.webhookUrl = saved.webhookUrl;
    this.partner = saved.partner;
    this.authKeys = saved.authKeys;
    this.fingerprintIds = new Map(saved.fingerprintIds);
    this.nameTurn = saved.nameTurn;
    this.nextUserSeq = saved.nextUserSeq;
    this.log = new WebhookLog(this.newId, () => this.nowIso(), saved.log);
    this.order = [];
    this.verifications = new Map();
    this.unfinishedByPhone = new KeyIndex('unfinishedByPhone');
    this.expiries = new ExpiryQueue();
    this.byPhone = new KeyIndex('byPhone');
    this.byExternalUserId = new KeyIndex('byExternalUserId');
    this.byUserId = new KeyIndex('byUserId');
    this.byStatus = new KeyIndex('byStatus');
    this.byDevice = new KeyIndex('byDevice');
    this.byToken = undefined;
    this.createdInOrder = true;
    for (const v of saved.verifications) this.addVerification(v);
    this.users = new Map();
    this.userOrder = [];
    this.usersByPhone = new KeyIndex('usersByPhone');
    this.usersByExternalUserId = new KeyIndex('usersByExternalUserId');
    this.shareholders = new KeyIndex('shareholders');
    for (const u of saved.users) this.addUser(u);
  }

  // ---- lookups ---------------------------------------------------------------

  protected clock(): Date {
    return this.options.clock.now();
  }

  protected nowIso(): string {
    return this.clock().toISOString();
  }

  /** Every read or change first lets time do its work. */
  protected verification(id: string): StoredVerification {
    this.expireDue();
    const v = this.verifications.get(id);
    if (!v) throw new SandboxError(404, `Verification ${id} not found`);
    return v;
  }

  protected user(id: string): StoredUser {
    this.expireDue();
    const u = this.users.get(id);
    if (!u) throw new SandboxError(404, `User ${id} not found`);
    return u;
  }

  protected userWithPhone(phoneNumber: string): StoredUser | undefined {
    return this.usersByPhone.first(phoneNumber);
  }

  /** Overridden by the lifecycle: expires what the clock has passed, and says how many. */
  expireDue(): number {
    return 0;
  }

  // ---- records and their indexes ---------------------------------------------

  protected addVerification(v: StoredVerification, validToMs = Date.parse(v.data.validTo)): void {
    const last = this.order.at(-1);
    if (last && last.data.createdAt > v.data.createdAt) this.createdInOrder = false;
    v.seq = this.order.length;
    this.order.push(v);
    this.verifications.set(v.data.id, v);
    this.byToken?.set(v.token, v);
    this.byExternalUserId.set(v, [v.data.externalUserId]);
    this.reindex(v);
    if (UNFINISHED.has(v.data.status)) this.track(v);
    if (EXPIRABLE.has(v.data.status)) this.expiries.push(v, validToMs);
  }

  /** After a change of status, user, phone numbers or devices. */
  protected reindex(v: StoredVerification): void {
    this.byStatus.set(v, [v.data.status]);
    this.byUserId.set(v, v.data.userId ? [v.data.userId] : []);
    this.byPhone.set(v, v.data.phoneNumbers.map((p) => p.phoneNumber));
    this.byDevice.set(v, v.devices);
  }

  protected addUser(user: StoredUser): void {
    if (this.users.has(user.id)) return;
    if (user.seq === undefined || user.seq < 0) user.seq = this.nextUserSeq++;
    this.users.set(user.id, user);
    this.userOrder.push(user);
    this.reindexUser(user);
  }

  protected removeUser(user: StoredUser): void {
    this.users.delete(user.id);
    this.userOrder.splice(this.userOrder.indexOf(user), 1);
    this.usersByPhone.delete(user);
    this.usersByExternalUserId.delete(user);
    this.shareholders.delete(user);
  }

  /** After a change of the user's phone numbers, external users or shares. */
  protected reindexUser(user: StoredUser): void {
    this.usersByPhone.set(user, user.phoneNumbers.map((p) => p.phoneNumber));
    this.usersByExternalUserId.set(user, user.externalUsers.map((e) => e.id));
    this.shareholders.set(user, [user.shares.isShareholder]);
  }

  /** Every status change emits `verification.updated` (source, States notes). */
  protected setStatus(v: StoredVerification, status: VerificationStatus, at = this.nowIso()): void {
    v.data.status = status;
    v.data.updatedAt = at;
    if (!UNFINISHED.has(status)) this.unfinishedByPhone.delete(v);
    this.reindex(v);
    this.emitVerification(v, 'verification.updated', at);
  }

  /** When the soonest session may expire (ms since the epoch; Infinity when none can): before it, time has nothing to do. */
  get nextExpiryMs(): number {
    return this.expiries.next;
  }

  /** Indexes a verification that is open or in review by its phone numbers (again after a number is added). */
  protected track(v: StoredVerification): void {
    this.unfinishedByPhone.set(v, v.data.phoneNumbers.map((p) => p.phoneNumber));
  }

  // ---- events ------------------------------------------------------------------

  protected envelope<E extends WebhookEvent>(dataType: E['dataType'], eventType: E['eventType'], data: E['data'], at = this.nowIso()): E {
    return { eventId: this.newId(), dataType, eventType, createdAt: at, data } as E;
  }

  protected emitVerification(v: StoredVerification, eventType: 'verification.created' | 'verification.updated', at?: string): void {
    const event = this.envelope('verification', eventType, verificationEventData(v), at);
    this.emit(event, { verificationId: v.data.id }, v.data.metadata);
  }

  protected emitUser(user: StoredUser, eventType: 'user.created' | 'user.merged' | 'user.updated' | 'user.deleted'): void {
    this.emit(this.envelope('user', eventType, userEventData(user)), { userId: user.id });
  }

  /**
   * Serializes the webhook at once (its data may share arrays with the live
   * record), records it in the history it belongs to, then hands it to the HTTP layer.
   */
  protected emit(event: WebhookEvent, owner: { verificationId?: string; userId?: string }, metadata?: Record<string, unknown>): void {
    const emitted = new SerializedEvent(JSON.stringify(event), event.eventId, owner.verificationId, owner.userId);
    this.log.add(emitted, event.createdAt, metadata);
    this.options.onEvent(emitted);
  }

  /** The recorded webhook with this id (pending deliveries after a restart). */
  emitted(eventId: string): EmittedEvent | undefined {
    return this.log.emitted(eventId);
  }
}
