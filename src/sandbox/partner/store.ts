// The partner engine's store, and what every operation shares: lookups, expiry, status changes and their webhooks.
import type { components } from '../../../generated/types/partner.js';
import type { WebhookEvent } from '../../webhooks/events.js';
import type { SandboxClock } from '../common/clock.js';
import { randomUUID } from '../common/random.js';
import { NO_WEBHOOK_URL, SandboxError, emittedEvent, type EmittedEvent } from './api.js';
import type { StoredUser, StoredVerification, VerificationStatus, WebhookEntry } from './records.js';
import { shareholderEventData, userEventData, verificationEventData } from './views.js';

type S = components['schemas'];

export interface PartnerStoreOptions {
  clock: Pick<SandboxClock, 'now' | 'nowMs'>;
  /** The first active `X-Auth-Key`; a reset returns to it. */
  authKey: string;
  /** Where webhooks go; absent means none configured until `PUT /partners`. */
  webhookUrl?: string;
  /** Base address of the sandbox, used in verification `url`s. */
  publicUrl: string;
  onEvent: (e: EmittedEvent) => void;
  /** Must return UUIDs: ids of events, verifications and users all come from it (crypto.randomUUID when absent). */
  newId?: () => string;
}

/** The partner and its keys: what the store holds besides its records. */
export interface PartnerHead {
  webhookUrl?: string;
  partner: S['Partner'];
  authKeys: S['AuthKey'][];
  /** How many stand-in names scans have taken (fixtures.ts `someName`), kept so a restart goes on from it. */
  nameTurn: number;
}

// Its two indexes spare every delivery result and every create a scan of all that is stored.
export interface PartnerStore extends PartnerHead {
  readonly options: PartnerStoreOptions;
  readonly newId: () => string;
  publicUrl: string;
  verifications: Map<string, StoredVerification>;
  users: Map<string, StoredUser>;
  /** Webhook records by their id, in the order they were made. */
  webhooks: Map<string, WebhookEntry>;
  /** The ids of each event's records (one per history it is in), which every delivery result updates. */
  webhooksByEvent: Map<string, string[]>;
  /** Open and in-review verifications by each phone number they hold, which every create looks up (operation 5, rule 2). */
  unfinishedByPhone: Map<string, Set<StoredVerification>>;
  /** No open session expires before this instant (ms), so time has nothing to do until then. */
  nextExpiryMs: number;
}

/** Statuses in which `validTo` still matters (source: "`validTo` reached" rows). */
export const EXPIRABLE: ReadonlySet<VerificationStatus> = new Set(['created', 'started', 'waitingForUserInput']);
/** Rule 2 of operation 5 calls these "open": one phone number has at most one open verification. */
export const OPEN: ReadonlySet<VerificationStatus> = new Set(['created', 'started']);
/** What a new create may close or conflict with. */
const UNFINISHED: ReadonlySet<VerificationStatus> = new Set([...EXPIRABLE, 'inReview']);

export function newStore(options: PartnerStoreOptions): PartnerStore {
  const store = {
    options,
    newId: options.newId ?? randomUUID,
    publicUrl: options.publicUrl.replace(/\/+$/, ''),
  } as PartnerStore;
  resetStore(store);
  return store;
}

/** Back to a fresh partner with the first key and no records. */
export function resetStore(store: PartnerStore): void {
  const now = nowIso(store);
  loadStore(store, {
    partner: { id: store.newId(), webhookUrl: NO_WEBHOOK_URL, name: 'Sandbox Partner', createdAt: now, updatedAt: now },
    authKeys: [{ id: store.newId(), key: store.options.authKey, active: true, createdAt: now, updatedAt: now }],
    nameTurn: 0,
  });
}

/** Replaces the head and empties the records (a snapshot's records are applied after it). */
export function loadStore(store: PartnerStore, head: PartnerHead): void {
  // The webhookUrl given at start wins over a saved one, in the partner too, so GET /partners shows where webhooks go.
  const webhookUrl = store.options.webhookUrl ?? head.webhookUrl;
  Object.assign(store, {
    ...head,
    webhookUrl,
    partner: webhookUrl === undefined ? head.partner : { ...head.partner, webhookUrl },
    verifications: new Map(),
    users: new Map(),
    webhooks: new Map(),
    webhooksByEvent: new Map(),
    unfinishedByPhone: new Map(),
    nextExpiryMs: Infinity,
  });
}

export function putWebhook(store: PartnerStore, entry: WebhookEntry): void {
  const { id } = entry.record;
  if (!store.webhooks.has(id))
    store.webhooksByEvent.set(entry.eventId, [...(store.webhooksByEvent.get(entry.eventId) ?? []), id]);
  store.webhooks.set(id, entry);
}

export const nowIso = (store: PartnerStore) => store.options.clock.now().toISOString();

const notFound = (what: string): never => {
  throw new SandboxError(404, `${what} not found`);
};
export const verification = (store: PartnerStore, id: string) =>
  store.verifications.get(id) ?? notFound(`Verification ${id}`);
export const user = (store: PartnerStore, id: string) => store.users.get(id) ?? notFound(`User ${id}`);

export const userWithPhone = (store: PartnerStore, phoneNumber: string) =>
  [...store.users.values()].find((u) => u.phoneNumbers.some((p) => p.phoneNumber === phoneNumber));

/** Open or in-review verifications holding any of these numbers, number by number. */
export function unfinishedWith(store: PartnerStore, numbers: readonly string[]): StoredVerification[] {
  return [...new Set(numbers.flatMap((n) => [...(store.unfinishedByPhone.get(n) ?? [])]))];
}

/** Files `v` under its phone numbers while it is unfinished (again after it gains a number), and takes it out once it is not. */
export function trackPhones(
  store: PartnerStore,
  v: StoredVerification,
  unfinished = UNFINISHED.has(v.data.status),
): void {
  for (const { phoneNumber } of v.data.phoneNumbers) {
    const holders = store.unfinishedByPhone.get(phoneNumber) ?? new Set();
    if (unfinished) store.unfinishedByPhone.set(phoneNumber, holders.add(v));
    else if (holders.delete(v) && holders.size === 0) store.unfinishedByPhone.delete(phoneNumber);
  }
}

/** Adds a record, new or loaded from the state file. */
export function addVerification(store: PartnerStore, v: StoredVerification): void {
  trackPhones(store, v);
  store.verifications.set(v.data.id, v);
  if (EXPIRABLE.has(v.data.status)) store.nextExpiryMs = Math.min(store.nextExpiryMs, Date.parse(v.data.validTo));
}

/** Expires what the clock passed, soonest `validTo` first; scans only once it reaches the soonest one seen. */
export function expireDue(store: PartnerStore): void {
  const now = store.options.clock.nowMs();
  if (now < store.nextExpiryMs) return;
  const due: [number, StoredVerification][] = [];
  let next = Infinity;
  for (const v of store.verifications.values()) {
    if (!EXPIRABLE.has(v.data.status)) continue;
    const at = Date.parse(v.data.validTo);
    if (at <= now) due.push([at, v]);
    else next = Math.min(next, at);
  }
  store.nextExpiryMs = next;
  // The service expires a session when `validTo` is reached, so that is the time of the change.
  for (const [, v] of due.sort((a, b) => a[0] - b[0])) setStatus(store, v, 'expired', v.data.validTo);
}

/** Every status change emits `verification.updated` (source, States notes). */
export function setStatus(
  store: PartnerStore,
  v: StoredVerification,
  status: VerificationStatus,
  at = nowIso(store),
): void {
  v.data.status = status;
  v.data.updatedAt = at;
  trackPhones(store, v);
  emitVerification(store, v, 'verification.updated', at);
}

export function emitVerification(
  store: PartnerStore,
  v: StoredVerification,
  eventType: 'verification.created' | 'verification.updated',
  at?: string,
): void {
  const owner = { verificationId: v.data.id, metadata: v.data.metadata };
  emit(store, 'verification', eventType, verificationEventData(v), owner, at);
}

/** A user's webhook; `shareholder.verified` has data (and a data type) of its own. */
export function emitUser(
  store: PartnerStore,
  u: StoredUser,
  eventType: 'user.created' | 'user.merged' | 'user.updated' | 'user.deleted' | 'shareholder.verified',
): void {
  if (eventType === 'shareholder.verified')
    emit(store, 'shareholder', eventType, shareholderEventData(u), { userId: u.id });
  else emit(store, 'user', eventType, userEventData(u), { userId: u.id });
}

type Owner = { verificationId?: string; userId?: string; metadata?: Record<string, unknown> };

/** Serializes the webhook at once (its data shares the record's arrays), keeps its history records, announces it. */
function emit(
  store: PartnerStore,
  dataType: WebhookEvent['dataType'],
  eventType: WebhookEvent['eventType'],
  data: WebhookEvent['data'],
  owner: Owner,
  at = nowIso(store),
): void {
  const eventId = store.newId();
  const text = JSON.stringify({ eventId, dataType, eventType, createdAt: at, data });
  const { verificationId, userId, metadata = {} } = owner;
  const pending = store.webhookUrl !== undefined;
  // Whole literals, not spreads of a shared part: spread records made every history scan about 15× slower (V8).
  if (verificationId !== undefined) {
    const record = {
      id: store.newId(),
      success: false,
      retryAt: null,
      createdAt: at,
      updatedAt: at,
      verificationId,
      type: 'verification' as const,
      metadata,
    };
    putWebhook(store, { eventId, text, pending, kind: 'verification', record });
  }
  if (userId !== undefined) {
    const record = {
      id: store.newId(),
      success: false,
      retryAt: null,
      createdAt: at,
      updatedAt: at,
      userId,
      type: 'user' as const,
    };
    putWebhook(store, { eventId, text, pending, kind: 'user', record });
  }
  store.options.onEvent(emittedEvent(text, eventId, verificationId, userId));
}
