// The partner document's operations over the store, and `createPartnerState`,
// which binds them and the lifecycle's to one store.
import type { components, operations } from '../../../generated/types/partner.js';
import { inWindow, pageOf, wants, PAGES_ONLY } from './paging.js';
import { filtered, type ListFilters } from '../common/list-filters.js';
import { NO_WEBHOOK_URL, SandboxError, webhookUrlRefusal } from './api.js';
import { E164, newAuthKey, sessionToken } from './fixtures.js';
import {
  acceptReview,
  attached,
  closeVerification,
  detach,
  enterDateOfBirth,
  enterName,
  expire,
  markShareholder,
  openLink,
  phoneHolder,
  refreshCollected,
  requires,
  scan,
  verifyPhone,
} from './lifecycle.js';
import type { StoredUser, StoredVerification } from './records.js';
import { seedPartnerState } from './seed.js';
import {
  addVerification,
  emitUser,
  emitVerification,
  expireDue,
  newStore,
  nowIso,
  OPEN,
  resetStore,
  setStatus,
  unfinishedWith,
  user as findUser,
  userWithPhone,
  verification,
  type PartnerStore,
  type PartnerStoreOptions,
} from './store.js';
import { createdVerificationView, userDetailsView, userListItem, verificationView } from './views.js';
import { historyPage, pendingEvents, recordDelivery, recordedEvent } from './webhook-log.js';
import { jsonCopy } from '../common/json-copy.js';

type S = components['schemas'];
type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;

const getPartner = (store: PartnerStore): S['Partner'] => ({ ...store.partner });

function updatePartner(store: PartnerStore, body: S['PartnerUpdate']): S['Partner'] {
  const refused = webhookUrlRefusal(body.webhookUrl);
  if (refused) throw new SandboxError(400, `webhookUrl refused: ${refused}`);
  if (body.webhookUrl !== NO_WEBHOOK_URL || store.webhookUrl !== undefined) store.webhookUrl = body.webhookUrl;
  store.partner = { ...store.partner, webhookUrl: body.webhookUrl, updatedAt: nowIso(store) };
  return getPartner(store);
}

function listAuthKeys(store: PartnerStore, query: Query<'listAuthKeys'>): S['AuthKeyList'] {
  const { items, count } = pageOf(filtered([...store.authKeys].reverse(), query, PAGES_ONLY), query);
  return { authKeys: jsonCopy(items), count };
}

/** POST /auth-keys: a new active key; the previous one stops working at once. */
function rotateAuthKey(store: PartnerStore): S['AuthKeyList'] {
  const now = nowIso(store);
  const previous = store.authKeys.find((k) => k.active);
  const retired = previous && { ...previous, active: false, updatedAt: now };
  const created: S['AuthKey'] = { id: store.newId(), key: newAuthKey(), active: true, createdAt: now, updatedAt: now };
  store.authKeys = [...store.authKeys.map((k) => (retired && k === previous ? retired : k)), created];
  // The source's answer is "the new active key and the previous key now inactive", and `count` their number.
  const authKeys = jsonCopy(retired ? [created, retired] : [created]);
  return { authKeys, count: authKeys.length };
}

/** The key `X-Auth-Key` must carry now. */
const activeAuthKey = (store: PartnerStore): string => store.authKeys.find((k) => k.active)!.key;

/** Whether a key is the active one, one rotated away by POST /auth-keys, or none of the partner's (undefined). */
function authKeyState(store: PartnerStore, key: string): 'active' | 'retired' | undefined {
  const found = store.authKeys.find((k) => k.key === key);
  return found && (found.active ? 'active' : 'retired');
}

function createVerification(store: PartnerStore, body: S['VerificationCreate']): S['CreatedVerification'] {
  const minutes = body.timeToExpiry ?? 10080; // a week, the documented default
  const phoneNumbers = phoneNumbersOf(body);
  const samePhone = unfinishedWith(
    store,
    phoneNumbers.map((p) => p.phoneNumber),
  );
  const inReview = samePhone.find((v) => v.data.status === 'inReview' && v.data.externalUserId === body.externalUserId);
  if (inReview)
    throw new SandboxError(
      409,
      `Verification ${inReview.data.id} for this phone number and externalUserId is in review; wait for the review to finish`,
    );
  for (const open of samePhone) if (OPEN.has(open.data.status)) setStatus(store, open, 'closed');

  const now = store.options.clock.now();
  const id = store.newId();
  const token = sessionToken();
  const createdAt = now.toISOString();
  const { phoneNumber, isPhoneNumberVerified, firstName, lastName, requireFirstAndLastName } = body;
  const { externalUserId, redirectUrl, errorRedirectUrl, reason, author, metadata } = body;
  // One literal in the documented order; a field the body leaves out is undefined, so JSON and copies leave it out.
  const data: StoredVerification['data'] = {
    id,
    url: `${store.publicUrl}/s/${id}?token=${token}`,
    phoneNumber,
    isPhoneNumberVerified,
    phoneNumbers,
    firstName,
    lastName,
    requireFirstAndLastName,
    requirements: requirementsOf(body),
    collectedRequirements: [],
    userId: null,
    previousUserId: null,
    externalUserId,
    redirectUrl,
    errorRedirectUrl,
    reason,
    author,
    status: 'created',
    metadata: metadata === undefined ? undefined : { ...metadata },
    validTo: new Date(now.getTime() + minutes * 60_000).toISOString(),
    createdAt,
    updatedAt: createdAt,
  };
  const v: StoredVerification = {
    token,
    activities: [],
    devices: [],
    fingerprintEvents: [],
    entered: {},
    verifiedPhones: [],
    data,
  };
  refreshCollected(v);
  addVerification(store, v);
  // The event happens at the instant of the create (the clock stands still during a request).
  emitVerification(store, v, 'verification.created', createdAt);
  return createdVerificationView(v);
}

function revertVerification(store: PartnerStore, body: S['VerificationRevert']): S['VerificationRevertResult'] {
  const v = verification(store, body.verificationId);
  const { status } = v.data;
  if (!(status === 'completed' || (status === 'waitingForUserInput' && requires(v, 'document')))) {
    throw new SandboxError(
      409,
      `Verification ${v.data.id} cannot be reverted in status ${status}: only completed verifications, or waitingForUserInput ones requiring an ID scan, can`,
    );
  }
  // Reverted from waitingForUserInput, no user ever held the data: no previous user to name (P9).
  const user = status === 'completed' ? store.users.get(v.data.userId!)! : undefined;
  if (user) detach(store, user, v);
  if (user?.externalUsers.length === 0) {
    store.users.delete(user.id);
    emitUser(store, user, 'user.deleted');
  }
  v.revertedBy = body.author;
  v.data.userId = null;
  v.data.previousUserId = user?.id ?? null;
  setStatus(store, v, 'reverted');
  return { id: v.data.id };
}

const verificationFilters: ListFilters<Query<'listVerifications'>, StoredVerification> = {
  phoneNumber: ({ data }, numbers) => wants(numbers, ...data.phoneNumbers.map((p) => p.phoneNumber)),
  externalUserId: ({ data }, ids) => wants(ids, data.externalUserId),
  userId: ({ data }, ids) => wants(ids, data.userId),
  status: ({ data }, statuses) => wants(statuses, data.status),
  from: ({ data }, from, q) => inWindow(data[q.datetimeField ?? 'createdAt'], from, 'from'),
  to: ({ data }, to, q) => inWindow(data[q.datetimeField ?? 'createdAt'], to, 'to'),
  datetimeField: null,
  ...PAGES_ONLY,
};

function listVerifications(store: PartnerStore, query: Query<'listVerifications'>): S['VerificationList'] {
  const matches = filtered(store.verifications.values(), query, verificationFilters);
  const { items, count } = pageOf(matches.reverse(), query);
  return { verifications: items.map((v) => jsonCopy(v.data)), count };
}

const getVerification = (store: PartnerStore, verificationId: string): S['Verification'] =>
  verificationView(verification(store, verificationId));

const userActivities = (store: PartnerStore, verificationId: string): S['UserActivityList'] => ({
  activities: jsonCopy(verification(store, verificationId).activities),
});

const withDevice = (store: PartnerStore, deviceId: string) =>
  [...store.verifications.values()].filter((v) => v.devices.includes(deviceId));

function verificationLinkedByDevice(store: PartnerStore, verificationId: string): S['VerificationLinkedByDevice'] {
  const linked = (deviceId: string) => ({
    deviceId,
    verifications: withDevice(store, deviceId).map((v) => ({ verificationId: v.data.id })),
  });
  return { verificationId, linkedVerificationsByDevice: verification(store, verificationId).devices.map(linked) };
}

const verificationWebhooks = (
  store: PartnerStore,
  verificationId: string,
  query: Query<'listVerificationWebhooks'>,
): S['VerificationWebhookRecordList'] => historyPage(store, 'verification', verificationId, query, PAGES_ONLY);

const userFilters: ListFilters<Query<'listUsers'>, StoredUser> = {
  phoneNumber: (u, numbers) => wants(numbers, ...u.phoneNumbers.map((p) => p.phoneNumber)),
  externalUserId: (u, ids) => wants(ids, ...u.externalUsers.map((e) => e.id)),
  id: (u, ids) => wants(ids, u.id),
  isShareholder: (u, isShareholder) => u.shares.isShareholder === isShareholder,
  ...PAGES_ONLY,
};

function listUsers(store: PartnerStore, query: Query<'listUsers'>): S['UserList'] {
  const { items, count } = pageOf(filtered(store.users.values(), query, userFilters).reverse(), query);
  return { users: items.map(userListItem), count };
}

const getUser = (store: PartnerStore, userId: string): S['UserDetails'] => userDetailsView(findUser(store, userId));

function userLinkedByDevice(store: PartnerStore, userId: string): S['UserLinkedByDevice'] {
  const devices = new Set(attached(store, findUser(store, userId)).flatMap((v) => v.devices));
  return {
    userId,
    linkedUsersByDevice: [...devices].map((deviceId) => {
      // A user holds exactly its completed verifications, which name it in `userId`.
      const holders = new Set(withDevice(store, deviceId).map((v) => v.data.userId));
      return {
        deviceId,
        users: [...store.users.values()].filter((u) => holders.has(u.id)).map((u) => ({ userId: u.id })),
      };
    }),
  };
}

const userShares = (store: PartnerStore, userId: string): S['Shares'] => ({ ...findUser(store, userId).shares });

function createExternalUsers(store: PartnerStore, body: S['ExternalUsersCreate']): S['ExternalUsersResult'] {
  const result: S['ExternalUsersResult'] = {
    externalUsersWithSuccess: [],
    unknownPhoneNumbers: [],
    invalidPhoneNumbers: [],
    duplicatedExternalUserIds: [],
  };
  const addOnce = (list: string[], value: string) => list.includes(value) || list.push(value);
  const now = nowIso(store);
  for (const { phoneNumber, externalUserId } of body.externalUsers) {
    if (!E164.test(phoneNumber)) {
      addOnce(result.invalidPhoneNumbers, phoneNumber);
      continue;
    }
    const user = userWithPhone(store, phoneNumber);
    const taken = [...store.users.values()].some((u) => u.externalUsers.some((e) => e.id === externalUserId));
    if (!user) addOnce(result.unknownPhoneNumbers, phoneNumber);
    else if (taken) addOnce(result.duplicatedExternalUserIds, externalUserId);
    else {
      user.externalUsers.push({ id: externalUserId, createdAt: now });
      user.updatedAt = now;
      // The documents say nothing of `partnerUserId`: a fresh id per link, never the user's id, so a
      // client that takes it for the user's id fails here rather than against the service (S3).
      result.externalUsersWithSuccess.push({ externalUserId, phoneNumber, partnerUserId: store.newId() });
    }
  }
  return result;
}

function userFingerprints(
  store: PartnerStore,
  userId: string,
  query: Query<'listUserFingerprints'>,
): S['FingerprintList'] {
  const byDevice = new Map<string, S['Fingerprint']>();
  for (const v of attached(store, findUser(store, userId))) {
    for (const e of v.fingerprintEvents) {
      const fingerprint = byDevice.get(e.deviceId) ?? { id: e.fingerprintId, events: [] };
      fingerprint.events.push({ id: e.id, data: jsonCopy(e.data) });
      byDevice.set(e.deviceId, fingerprint);
    }
  }
  const { items, count } = pageOf(filtered(byDevice.values(), query, PAGES_ONLY), query);
  return { fingerprints: items, count };
}

const userWebhooks = (
  store: PartnerStore,
  userId: string,
  query: Query<'listUserWebhooks'>,
): S['UserWebhookRecordList'] => historyPage(store, 'user', userId, query, PAGES_ONLY);

/** Deprecated `phoneNumber`/`isPhoneNumberVerified` become a `phoneNumbers` entry (source: "replaced by"). */
function phoneNumbersOf(body: S['VerificationCreate']): S['VerificationPhoneNumber'][] {
  const list = (body.phoneNumbers ?? []).map((p) => ({ ...p }));
  const { phoneNumber } = body;
  if (phoneNumber !== undefined && !list.some((p) => p.phoneNumber === phoneNumber))
    list.unshift({ phoneNumber, isVerified: body.isPhoneNumberVerified ?? false });
  return list;
}

/** `requireFirstAndLastName: true` becomes a `firstAndLastName` requirement; each type counts once. */
function requirementsOf(body: S['VerificationCreate']): S['Requirement'][] {
  const types = (body.requirements ?? []).map((r) => r.type);
  if (body.requireFirstAndLastName === true) types.unshift('firstAndLastName');
  return [...new Set(types)].map((type) => ({ type }));
}

/**
 * The partner document's operations and the control API's (lifecycle.ts), each taking the store first. Bound, each
 * first lets time do its work: the one place the engine expires what the clock passed, whoever calls it.
 */
const TIMED_OPERATIONS = {
  ...{ getPartner, updatePartner, listAuthKeys, rotateAuthKey },
  ...{
    createVerification,
    revertVerification,
    listVerifications,
    getVerification,
    userActivities,
    verificationLinkedByDevice,
    verificationWebhooks,
  },
  ...{ listUsers, getUser, userLinkedByDevice, userShares, createExternalUsers, userFingerprints, userWebhooks },
  ...{
    openLink,
    enterName,
    enterDateOfBirth,
    verifyPhone,
    scan,
    acceptReview,
    expire,
    closeVerification,
    markShareholder,
  },
};

/**
 * What the doors and delivery call around requests. None lets time work: delivery calls them outside any request,
 * where an expiry's webhook would go out before its change is saved with --state. `expireDue` is time's work itself,
 * for the control API's clock advance to send what it passed over at once.
 */
const UNTIMED_OPERATIONS = {
  ...{ activeAuthKey, authKeyState, expireDue, recordDelivery, pendingEvents, recordedEvent },
  /** The verification a session token of a `url` belongs to. */
  verificationIdForToken: (store: PartnerStore, token: string) =>
    [...store.verifications.values()].find((v) => v.token === token)?.data.id,
  /** Whether a user holds one of the verification's phone numbers (the end user's page offers that decline, S6). */
  phoneNumberHeld: (store: PartnerStore, verificationId: string) =>
    phoneHolder(store, verification(store, verificationId)) !== undefined,
  /** The partner's webhook address, or undefined while none was configured. */
  webhookTarget: (store: PartnerStore) => store.webhookUrl,
  reset: resetStore,
};

/** Each engine function as `createPartnerState` binds it to one store: the store argument taken away. */
type Bound<F> = {
  [K in keyof F]: F[K] extends (store: never, ...args: infer A) => infer R ? (...args: A) => R : never;
};

/** The engine bound to one store: each operation without the store argument, plus `seed` and the store itself. */
export type PartnerState = Bound<typeof TIMED_OPERATIONS & typeof UNTIMED_OPERATIONS> & {
  readonly store: PartnerStore;
  seed(): ReturnType<typeof seedPartnerState>;
};

export function createPartnerState(options: PartnerStoreOptions): PartnerState {
  const store = newStore(options);
  // Each operation called with the arguments its bound type (PartnerState) took.
  const bind =
    (timed: boolean) =>
    ([name, operation]: [string, unknown]) => [
      name,
      (...args: unknown[]) => {
        if (timed) expireDue(store);
        return (operation as (store: PartnerStore, ...args: unknown[]) => unknown)(store, ...args);
      },
    ];
  const operations = [
    ...Object.entries(TIMED_OPERATIONS).map(bind(true)),
    ...Object.entries(UNTIMED_OPERATIONS).map(bind(false)),
  ];
  const state = { ...Object.fromEntries(operations), store } as PartnerState;
  state.seed = () => seedPartnerState(state, store.newId);
  return state;
}
