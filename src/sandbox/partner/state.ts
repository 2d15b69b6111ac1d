// The partner sandbox's state engine: the partner operations of the partner
// source document over the store (store.ts) and its lifecycle
// (lifecycle.ts). The HTTP layer (../http) validates inputs
// against the documents and turns SandboxError into error answers;
// everything returned here is a copy shaped by the partner document.
import type { components } from '../../../generated/types/partner.js';
import { pageOf, inWindow } from './paging.js';
import { SandboxError, type Paging, type PartnerApi } from './api.js';
import { E164, newAuthKey, sessionToken } from './fixtures.js';
import { PartnerLifecycle } from './lifecycle.js';
import { NOTHING, NOTHING_ENTERED, shared, type StoredUser, type StoredVerification, type VerificationStatus } from './records.js';
import { createdVerificationShape, createdVerificationView, userDetailsView, userListItem, verificationView } from './views.js';
import { JsonText } from '../common/answer-cache.js';
import { lowerBound, newestFirst, type Filter } from './record-index.js';
import { OPEN } from './store.js';
import { jsonCopy } from '../common/json-copy.js';

export type { PartnerStateOptions, PartnerSnapshot } from './store.js';

type S = components['schemas'];
type Query<Op extends 'listVerifications' | 'listUsers'> = Parameters<PartnerApi[Op]>[0];

const DEFAULT_TIME_TO_EXPIRY = 10080;

/** A filter answered by an index: the sets of the wanted keys, and the same test for candidates. */
function indexed<K, T>(wanted: readonly K[] | undefined, index: { get(key: K): ReadonlySet<T> }, keysOf: (item: T) => readonly K[], disjoint = false): Filter<T>[] {
  if (!wanted?.length) return [];
  return [{ sets: wanted.map((k) => index.get(k)), test: (item) => keysOf(item).some((k) => wanted.includes(k)), disjoint }];
}

export class PartnerState extends PartnerLifecycle implements PartnerApi {
  // ---- partner and keys -------------------------------------------------

  getPartner(): S['Partner'] {
    return { ...this.partner };
  }

  updatePartner(body: S['PartnerUpdate']): S['Partner'] {
    this.webhookUrl = body.webhookUrl;
    this.partner = { ...this.partner, webhookUrl: body.webhookUrl, updatedAt: this.nowIso() };
    return this.getPartner();
  }

  listAuthKeys(paging: Paging): S['AuthKeyList'] {
    const { items, count } = pageOf([...this.authKeys].reverse(), paging);
    return { authKeys: jsonCopy(items), count };
  }

  rotateAuthKey(): S['AuthKeyList'] {
    const now = this.nowIso();
    const previous = this.authKeys.find((k) => k.active);
    if (previous) Object.assign(previous, { active: false, updatedAt: now });
    const created: S['AuthKey'] = { id: this.newId(), key: newAuthKey(this.rand), active: true, createdAt: now, updatedAt: now };
    this.authKeys.push(created);
    // The source describes the answer as "the new active key and the previous
    // key now inactive": those two, and `count` is their number.
    const authKeys = jsonCopy(previous ? [created, previous] : [created]);
    return { authKeys, count: authKeys.length };
  }

  activeAuthKey(): string {
    return this.authKeys.find((k) => k.active)!.key;
  }

  /** Whether a key is the active one, one rotated away by POST /auth-keys, or none of the partner's (undefined). */
  authKeyState(key: string): 'active' | 'retired' | undefined {
    const found = this.authKeys.find((k) => k.key === key);
    return found && (found.active ? 'active' : 'retired');
  }

  // ---- verifications ------------------------------------------------------

  createVerification(body: S['VerificationCreate']): S['CreatedVerification'] {
    return createdVerificationView(this.addCreated(body));
  }

  /** The same for the HTTP layer: the answer serialized straight from the record, with no copy made first. */
  createVerificationJson(body: S['VerificationCreate']): JsonText {
    return new JsonText(JSON.stringify(createdVerificationShape(this.addCreated(body))));
  }

  private addCreated(body: S['VerificationCreate']): StoredVerification {
    this.expireDue();
    const minutes = body.timeToExpiry ?? DEFAULT_TIME_TO_EXPIRY;
    if (!(minutes >= 5 && minutes <= 43200)) throw new SandboxError(400, 'timeToExpiry must be between 5 and 43200 minutes');
    const phoneNumbers = phoneNumbersOf(body);
    const numbers = phoneNumbers.map((p) => p.phoneNumber);
    const sharesNumber = (v: StoredVerification) => v.data.phoneNumbers.some((p) => numbers.includes(p.phoneNumber));

    const samePhone = new Set<StoredVerification>();
    for (const n of numbers) for (const open of this.unfinishedByPhone.get(n)) samePhone.add(open);
    const inReview = [...samePhone].find(
      (v) => v.data.status === 'inReview' && v.data.externalUserId === body.externalUserId && sharesNumber(v),
    );
    if (inReview) {
      throw new SandboxError(
        409,
        `Verification ${inReview.data.id} for this phone number and externalUserId is in review; wait for the review to finish`,
      );
    }
    for (const open of samePhone) {
      if (OPEN.has(open.data.status)) this.setStatus(open, 'closed');
    }

    const now = this.clock();
    const id = this.newId();
    const token = sessionToken(this.rand);
    const createdAt = now.toISOString();
    const validToMs = now.getTime() + minutes * 60_000;
    // One object literal in the documented order: every create makes the same
    // shape with its fields in the object itself. An optional field the body
    // leaves out is undefined, which JSON, copies and views leave out.
    const data: StoredVerification['data'] = {
      id,
      // Joined into one flat string (a template keeps its pieces alive).
      url: Buffer.from(`${this.publicUrl}/s/${id}?token=${token}`).toString(),
      phoneNumber: body.phoneNumber,
      isPhoneNumberVerified: body.isPhoneNumberVerified,
      phoneNumbers,
      firstName: body.firstName,
      lastName: body.lastName,
      requireFirstAndLastName: body.requireFirstAndLastName,
      requirements: requirementsOf(body),
      collectedRequirements: [],
      userId: null,
      previousUserId: null,
      externalUserId: body.externalUserId,
      redirectUrl: body.redirectUrl,
      errorRedirectUrl: body.errorRedirectUrl,
      reason: body.reason,
      author: body.author,
      status: 'created',
      metadata: body.metadata === undefined ? undefined : { ...body.metadata },
      validTo: new Date(validToMs).toISOString(),
      createdAt,
      updatedAt: createdAt,
    };
    const v: StoredVerification = {
      seq: -1,
      token,
      activities: NOTHING,
      devices: NOTHING,
      fingerprintEvents: NOTHING,
      entered: NOTHING_ENTERED,
      verifiedPhones: NOTHING,
      data,
    };
    this.refreshCollected(v);
    this.addVerification(v, validToMs);
    // The event happens at the instant of the create (the clock stands still during a request).
    this.emitVerification(v, 'verification.created', createdAt);
    return v;
  }

  revertVerification(body: S['VerificationRevert']): S['VerificationRevertResult'] {
    const v = this.verification(body.verificationId);
    const { status } = v.data;
    const idScanRequired = v.data.requirements.some((r) => r.type === 'document');
    if (!(status === 'completed' || (status === 'waitingForUserInput' && idScanRequired))) {
      throw new SandboxError(
        409,
        `Verification ${v.data.id} cannot be reverted in status ${status}: only completed verifications, or waitingForUserInput ones requiring an ID scan, can`,
      );
    }
    // Reverted from waitingForUserInput, no user ever held the data: there is
    // no previous user to name (DECISIONS P9).
    let previousUserId: string | null = null;
    if (status === 'completed') {
      const user = this.users.get(v.data.userId!)!;
      this.detach(user, v);
      previousUserId = user.id;
      if (user.externalUsers.length === 0) {
        this.removeUser(user);
        this.emitUser(user, 'user.deleted');
      }
    }
    v.revertedBy = body.author;
    v.data.userId = null;
    v.data.previousUserId = previousUserId;
    this.setStatus(v, 'reverted');
    return { id: v.data.id };
  }

  listVerifications(query: Query<'listVerifications'>): S['VerificationList'] {
    this.expireDue();
    const q = query ?? {};
    const field = q.datetimeField ?? 'createdAt';
    const filters: Filter<StoredVerification>[] = [
      ...indexed(q.phoneNumber, this.byPhone, (v) => v.data.phoneNumbers.map((p) => p.phoneNumber)),
      ...indexed(q.externalUserId, this.byExternalUserId, (v) => [v.data.externalUserId]),
      ...indexed(q.userId, this.byUserId, (v) => (v.data.userId ? [v.data.userId] : [])),
      ...indexed(q.status, this.byStatus, (v) => [v.data.status], true),
    ];
    let lo = 0;
    let hi = this.order.length;
    if (q.from !== undefined || q.to !== undefined) {
      const byCreation = field === 'createdAt' && this.createdInOrder;
      filters.push({ test: (v) => inWindow(v.data[field], q.from, q.to), coveredByRange: byCreation });
      // Creation times rise with creation order, so a createdAt window is a slice of it.
      if (byCreation) {
        const created = (v: StoredVerification) => Date.parse(v.data.createdAt);
        if (q.from !== undefined) lo = lowerBound(this.order, created, Date.parse(q.from), true);
        if (q.to !== undefined) hi = Math.max(lo, lowerBound(this.order, created, Date.parse(q.to), true));
      }
    }
    const { items, count } = newestFirst(this.order, filters, q, lo, hi);
    return { verifications: items.map((v) => jsonCopy(v.data)), count };
  }

  getVerification(verificationId: string): S['Verification'] {
    return verificationView(this.verification(verificationId));
  }

  userActivities(verificationId: string): S['UserActivityList'] {
    return { activities: jsonCopy(this.verification(verificationId).activities) };
  }

  verificationLinkedByDevice(verificationId: string): S['VerificationLinkedByDevice'] {
    const v = this.verification(verificationId);
    return {
      verificationId,
      linkedVerificationsByDevice: v.devices.map((deviceId) => ({
        deviceId,
        verifications: [...this.byDevice.get(deviceId)].sort((a, b) => a.seq - b.seq).map((other) => ({ verificationId: other.data.id })),
      })),
    };
  }

  verificationWebhooks(verificationId: string, paging: Paging): S['VerificationWebhookRecordList'] {
    this.verification(verificationId);
    const { items, count } = pageOf(this.log.forVerification(verificationId), paging);
    return { webhooks: items, count };
  }

  // ---- users ------------------------------------------------------------------

  listUsers(query: Query<'listUsers'>): S['UserList'] {
    this.expireDue();
    const q = query ?? {};
    const filters: Filter<StoredUser>[] = [
      ...indexed(q.phoneNumber, this.usersByPhone, (u) => u.phoneNumbers.map((p) => p.phoneNumber)),
      ...indexed(q.externalUserId, this.usersByExternalUserId, (u) => u.externalUsers.map((e) => e.id)),
      ...(q.id?.length ? [{ sets: q.id.map((id) => new Set(this.users.has(id) ? [this.users.get(id)!] : [])), test: (u: StoredUser) => q.id!.includes(u.id) }] : []),
      ...(q.isShareholder === undefined ? [] : indexed([q.isShareholder], this.shareholders, (u) => [u.shares.isShareholder], true)),
    ];
    const { items, count } = newestFirst(this.userOrder, filters, q);
    return { users: items.map(userListItem), count };
  }

  getUser(userId: string): S['UserDetails'] {
    return userDetailsView(this.user(userId));
  }

  userLinkedByDevice(userId: string): S['UserLinkedByDevice'] {
    const user = this.user(userId);
    return {
      userId,
      linkedUsersByDevice: [...this.devicesOf(user)].map((deviceId) => {
        // A user holds exactly its completed verifications, which name it in `userId`.
        const holders = new Set([...this.byDevice.get(deviceId)].flatMap((v) => (v.data.userId ? (this.users.get(v.data.userId) ?? []) : [])));
        return { deviceId, users: [...holders].sort((a, b) => a.seq - b.seq).map((u) => ({ userId: u.id })) };
      }),
    };
  }

  userShares(userId: string): S['Shares'] {
    return { ...this.user(userId).shares };
  }

  createExternalUsers(body: S['ExternalUsersCreate']): S['ExternalUsersResult'] {
    this.expireDue();
    const result: S['ExternalUsersResult'] = {
      externalUsersWithSuccess: [],
      unknownPhoneNumbers: [],
      invalidPhoneNumbers: [],
      duplicatedExternalUserIds: [],
    };
    const addOnce = (list: string[], value: string) => list.includes(value) || list.push(value);
    const now = this.nowIso();
    for (const { phoneNumber, externalUserId } of body.externalUsers) {
      if (!E164.test(phoneNumber)) {
        addOnce(result.invalidPhoneNumbers, phoneNumber);
        continue;
      }
      const user = this.userWithPhone(phoneNumber);
      if (!user) {
        addOnce(result.unknownPhoneNumbers, phoneNumber);
      } else if (this.usersByExternalUserId.get(externalUserId).size > 0) {
        addOnce(result.duplicatedExternalUserIds, externalUserId);
      } else {
        user.externalUsers.push({ id: externalUserId, createdAt: now });
        user.updatedAt = now;
        this.reindexUser(user);
        // The source says nothing of `partnerUserId`; the sandbox answers with
        // the id of the service user the link was made to, the one thing the
        // partner does not already know from its own request.
        result.externalUsersWithSuccess.push({ externalUserId, phoneNumber, partnerUserId: user.id });
      }
    }
    return result;
  }

  userFingerprints(userId: string, paging: Paging): S['FingerprintList'] {
    const user = this.user(userId);
    const byDevice = new Map<string, S['Fingerprint']>();
    for (const v of this.attached(user)) {
      for (const e of v.fingerprintEvents) {
        const fingerprint = byDevice.get(e.deviceId) ?? { id: this.fingerprintIds.get(e.deviceId)!, events: [] };
        fingerprint.events.push({ id: e.id, data: jsonCopy(e.data) });
        byDevice.set(e.deviceId, fingerprint);
      }
    }
    const { items, count } = pageOf([...byDevice.values()], paging);
    return { fingerprints: items, count };
  }

  userWebhooks(userId: string, paging: Paging): S['UserWebhookRecordList'] {
    this.user(userId);
    const { items, count } = pageOf(this.log.forUser(userId), paging);
    return { webhooks: items, count };
  }
}

/** Deprecated `phoneNumber`/`isPhoneNumberVerified` become a `phoneNumbers` entry (source: "replaced by"). */
function phoneNumbersOf(body: S['VerificationCreate']): S['VerificationPhoneNumber'][] {
  const list = (body.phoneNumbers ?? []).map((p) => ({ ...p }));
  if (body.phoneNumber !== undefined && !list.some((p) => p.phoneNumber === body.phoneNumber)) {
    list.unshift({ phoneNumber: body.phoneNumber, isVerified: body.isPhoneNumberVerified ?? false });
  }
  return list;
}

/** `requireFirstAndLastName: true` becomes a `firstAndLastName` requirement; each type counts once. */
function requirementsOf(body: S['VerificationCreate']): S['Requirement'][] {
  const types = (body.requirements ?? []).map((r) => r.type);
  if (body.requireFirstAndLastName === true) types.unshift('firstAndLastName');
  // A requirement is never changed once stored (the request schema admits the documented types only).
  return [...new Set(types)].map((type) => shared(`requirement ${type}`, () => ({ type })));
}
