// The partner sandbox's state engine: verifications, users, keys and webhook
// histories, moved through the lifecycle of the partner source document
// (states table, rules of operations 5 and 6, event sequences). The HTTP
// layer (server.ts) validates inputs against the documents and turns
// SandboxError into error answers; everything returned here is a copy shaped
// by the partner document.
import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/types/partner.js';
import type { WebhookEvent } from '../webhooks/events.js';
import type { Clock } from './clock.js';
import { inWindow, matchesAny, pageOf } from './paging.js';
import { SandboxError, type EmittedEvent, type Paging, type PartnerApi } from './partner-api.js';
import type { DeliveryResult, PartnerControl, ScanInput, SeedResult } from './partner-control.js';
import {
  ageBracket,
  CALENDAR_DATE,
  E164,
  faceImage,
  newAuthKey,
  newDeviceId,
  newFingerprintEventId,
  newFingerprintId,
  scannedDocument,
  sessionToken,
  someName,
} from './partner-fixtures.js';
import type { PersonName, StoredUser, StoredVerification, VerificationStatus } from './partner-records.js';
import { seedPartnerState } from './partner-seed.js';
import {
  createdVerificationView,
  shareholderEventData,
  userDetailsView,
  userEventData,
  userListItem,
  verificationEventData,
  verificationView,
} from './partner-views.js';
import { WebhookLog } from './partner-webhook-log.js';

type S = components['schemas'];
type Query<Op extends 'listVerifications' | 'listUsers'> = Parameters<PartnerApi[Op]>[0];

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
}

/** Statuses in which `validTo` still matters (source: "`validTo` reached" rows). */
const EXPIRABLE: ReadonlySet<VerificationStatus> = new Set(['created', 'started', 'waitingForUserInput']);
/** Rule 2 of operation 5 calls these "open". */
const OPEN: ReadonlySet<VerificationStatus> = new Set(['created', 'started']);
/** What a new create may close or conflict with. */
const UNFINISHED: ReadonlySet<VerificationStatus> = new Set([...EXPIRABLE, 'inReview']);
const IN_SESSION: ReadonlySet<VerificationStatus> = new Set(['started', 'waitingForUserInput', 'inReview', 'completed']);
const DEFAULT_TIME_TO_EXPIRY = 10080;
/** Reserved top-level domain (RFC 2606): a placeholder that can never receive a webhook. */
const UNSET_WEBHOOK_URL = 'https://partner.invalid/webhooks';

const sameName = (a: PersonName | undefined, b: PersonName | undefined) =>
  !!a && !!b && a.firstName.trim().toLowerCase() === b.firstName.trim().toLowerCase() && a.lastName.trim().toLowerCase() === b.lastName.trim().toLowerCase();

export class PartnerState implements PartnerApi, PartnerControl {
  private readonly newId: () => string;
  private readonly publicUrl: string;
  private webhookUrl: string | undefined;
  private partner!: S['Partner'];
  private authKeys: S['AuthKey'][] = [];
  private verifications = new Map<string, StoredVerification>();
  // Indexes that keep a create independent of how many verifications exist:
  // the ones a new create may close or conflict with, by phone number, and
  // the ones that can still expire, with the earliest validTo among them.
  private unfinishedByPhone = new Map<string, Set<StoredVerification>>();
  private expirable = new Set<StoredVerification>();
  private nextExpiryMs = Infinity;
  private users = new Map<string, StoredUser>();
  private fingerprintIds = new Map<string, string>();
  private log!: WebhookLog;

  constructor(private readonly options: PartnerStateOptions) {
    this.newId = options.newId ?? randomUUID;
    this.publicUrl = options.publicUrl.replace(/\/+$/, '');
    this.reset();
  }

  // ---- partner and keys -------------------------------------------------

  getPartner(): S['Partner'] {
    return { ...this.partner };
  }

  updatePartner(body: S['PartnerUpdate']): S['Partner'] {
    this.webhookUrl = body.webhookUrl;
    this.partner = { ...this.partner, webhookUrl: body.webhookUrl, updatedAt: this.nowIso() };
    return this.getPartner();
  }

  webhookTarget(): string | undefined {
    return this.webhookUrl;
  }

  listAuthKeys(paging: Paging): S['AuthKeyList'] {
    const { items, count } = pageOf([...this.authKeys].reverse(), paging);
    return { authKeys: structuredClone(items), count };
  }

  rotateAuthKey(): S['AuthKeyList'] {
    const now = this.nowIso();
    const previous = this.authKeys.find((k) => k.active);
    if (previous) Object.assign(previous, { active: false, updatedAt: now });
    const created: S['AuthKey'] = { id: this.newId(), key: newAuthKey(), active: true, createdAt: now, updatedAt: now };
    this.authKeys.push(created);
    // The source describes the answer as "the new active key and the previous
    // key now inactive": those two, and `count` is their number.
    const authKeys = structuredClone(previous ? [created, previous] : [created]);
    return { authKeys, count: authKeys.length };
  }

  activeAuthKey(): string {
    return this.authKeys.find((k) => k.active)!.key;
  }

  // ---- verifications: partner operations --------------------------------

  createVerification(body: S['VerificationCreate']): S['CreatedVerification'] {
    this.expireDue();
    const minutes = body.timeToExpiry ?? DEFAULT_TIME_TO_EXPIRY;
    if (!(minutes >= 5 && minutes <= 43200)) throw new SandboxError(400, 'timeToExpiry must be between 5 and 43200 minutes');
    const phoneNumbers = phoneNumbersOf(body);
    const numbers = phoneNumbers.map((p) => p.phoneNumber);
    const sharesNumber = (v: StoredVerification) => v.data.phoneNumbers.some((p) => numbers.includes(p.phoneNumber));

    const samePhone = new Set(numbers.flatMap((n) => [...(this.unfinishedByPhone.get(n) ?? [])]));
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
    const token = sessionToken();
    const requirements = requirementsOf(body);
    const v: StoredVerification = {
      token,
      activities: [],
      devices: [],
      fingerprintEvents: [],
      entered: {},
      verifiedPhones: [],
      data: {
        id,
        url: `${this.publicUrl}/s/${id}?token=${token}`,
        ...(body.phoneNumber !== undefined && { phoneNumber: body.phoneNumber }),
        ...(body.isPhoneNumberVerified !== undefined && { isPhoneNumberVerified: body.isPhoneNumberVerified }),
        phoneNumbers,
        ...(body.firstName !== undefined && { firstName: body.firstName }),
        ...(body.lastName !== undefined && { lastName: body.lastName }),
        ...(body.requireFirstAndLastName !== undefined && { requireFirstAndLastName: body.requireFirstAndLastName }),
        requirements,
        collectedRequirements: [],
        userId: null,
        previousUserId: null,
        externalUserId: body.externalUserId,
        redirectUrl: body.redirectUrl,
        ...(body.errorRedirectUrl !== undefined && { errorRedirectUrl: body.errorRedirectUrl }),
        ...(body.reason !== undefined && { reason: body.reason }),
        ...(body.author !== undefined && { author: body.author }),
        status: 'created',
        ...(body.metadata !== undefined && { metadata: { ...body.metadata } }),
        validTo: new Date(now.getTime() + minutes * 60_000).toISOString(),
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      },
    };
    this.refreshCollected(v);
    this.verifications.set(id, v);
    this.track(v);
    this.emitVerification(v, 'verification.created');
    return createdVerificationView(v);
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
    let previousUserId: string;
    if (status === 'completed') {
      const user = this.users.get(v.data.userId!)!;
      this.detach(user, v);
      previousUserId = user.id;
      if (user.externalUsers.length === 0) {
        this.users.delete(user.id);
        this.emitUser(user, 'user.deleted');
      }
    } else {
      // No user holds the data yet; the face model has already matched the
      // person at the scan, and that identity is the user it was attached to.
      previousUserId = v.scan!.faceUserId;
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
    const matches = [...this.verifications.values()]
      .reverse()
      .map((v) => v.data)
      .filter(
        (d) =>
          matchesAny(q.phoneNumber, d.phoneNumbers.map((p) => p.phoneNumber)) &&
          matchesAny(q.externalUserId, [d.externalUserId]) &&
          matchesAny(q.userId, d.userId ? [d.userId] : []) &&
          matchesAny(q.status, [d.status]) &&
          inWindow(d[field], q.from, q.to),
      );
    const { items, count } = pageOf(matches, q);
    return { verifications: structuredClone(items), count };
  }

  getVerification(verificationId: string): S['Verification'] {
    return verificationView(this.verification(verificationId));
  }

  userActivities(verificationId: string): S['UserActivityList'] {
    return { activities: structuredClone(this.verification(verificationId).activities) };
  }

  verificationLinkedByDevice(verificationId: string): S['VerificationLinkedByDevice'] {
    const v = this.verification(verificationId);
    return {
      verificationId,
      linkedVerificationsByDevice: v.devices.map((deviceId) => ({
        deviceId,
        verifications: [...this.verifications.values()]
          .filter((other) => other.devices.includes(deviceId))
          .map((other) => ({ verificationId: other.data.id })),
      })),
    };
  }

  verificationWebhooks(verificationId: string, paging: Paging): S['VerificationWebhookRecordList'] {
    this.verification(verificationId);
    const { items, count } = pageOf(this.log.forVerification(verificationId), paging);
    return { webhooks: items, count };
  }

  // ---- users: partner operations -----------------------------------------

  listUsers(query: Query<'listUsers'>): S['UserList'] {
    this.expireDue();
    const q = query ?? {};
    const matches = [...this.users.values()]
      .reverse()
      .filter(
        (u) =>
          matchesAny(q.phoneNumber, u.phoneNumbers.map((p) => p.phoneNumber)) &&
          matchesAny(q.externalUserId, u.externalUsers.map((e) => e.id)) &&
          matchesAny(q.id, [u.id]) &&
          (q.isShareholder === undefined || u.shares.isShareholder === q.isShareholder),
      );
    const { items, count } = pageOf(matches, q);
    return { users: items.map(userListItem), count };
  }

  getUser(userId: string): S['UserDetails'] {
    return userDetailsView(this.user(userId));
  }

  userLinkedByDevice(userId: string): S['UserLinkedByDevice'] {
    const user = this.user(userId);
    return {
      userId,
      linkedUsersByDevice: [...this.devicesOf(user)].map((deviceId) => ({
        deviceId,
        users: [...this.users.values()].filter((u) => this.devicesOf(u).has(deviceId)).map((u) => ({ userId: u.id })),
      })),
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
      } else if ([...this.users.values()].some((u) => u.externalUsers.some((e) => e.id === externalUserId))) {
        addOnce(result.duplicatedExternalUserIds, externalUserId);
      } else {
        user.externalUsers.push({ id: externalUserId, createdAt: now });
        user.updatedAt = now;
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
        fingerprint.events.push({ id: e.id, data: structuredClone(e.data) });
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

  // ---- the end user, the reviewer and time (control API) ----------------

  openLink(verificationId: string, options: { deviceId?: string } = {}): S['Verification'] {
    const v = this.verification(verificationId);
    if (!EXPIRABLE.has(v.data.status)) {
      throw new SandboxError(409, `The link of verification ${verificationId} no longer opens: its status is ${v.data.status}`);
    }
    const now = this.nowIso();
    const sessionId = this.newId();
    const deviceId = options.deviceId ?? newDeviceId();
    v.activities.push({ activity: 'startSession', sessionId, createdAt: now });
    if (!v.devices.includes(deviceId)) v.devices.push(deviceId);
    if (!this.fingerprintIds.has(deviceId)) this.fingerprintIds.set(deviceId, newFingerprintId());
    v.fingerprintEvents.push({
      deviceId,
      id: newFingerprintEventId(),
      data: {
        verificationId,
        sessionId,
        deviceId,
        userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
        screen: { width: 390, height: 844 },
        timezone: 'Europe/Berlin',
        collectedAt: now,
      },
    });
    if (v.data.status === 'created') this.setStatus(v, 'started');
    return verificationView(v);
  }

  enterName(verificationId: string, name: { firstName: string; lastName: string }): S['Verification'] {
    const v = this.inSession(verificationId);
    const firstName = name.firstName?.trim();
    const lastName = name.lastName?.trim();
    if (!firstName || !lastName) throw new SandboxError(400, 'firstName and lastName must not be empty');
    v.entered.name = { firstName, lastName };
    this.afterInput(v, (user, now) => {
      if (sameName(user.firstName && user.lastName ? { firstName: user.firstName, lastName: user.lastName } : undefined, v.entered.name)) return false;
      user.names.push({ firstName, lastName, createdAt: now });
      Object.assign(user, { firstName, lastName });
      return true;
    });
    return verificationView(v);
  }

  enterDateOfBirth(verificationId: string, input: { dateOfBirth: string }): S['Verification'] {
    const v = this.inSession(verificationId);
    if (!CALENDAR_DATE.test(input.dateOfBirth ?? '')) throw new SandboxError(400, 'dateOfBirth must be a date (YYYY-MM-DD)');
    v.entered.dateOfBirth = input.dateOfBirth;
    this.afterInput(v, (user) => {
      if (user.dateOfBirth === input.dateOfBirth) return false;
      user.dateOfBirth = input.dateOfBirth;
      return true;
    });
    return verificationView(v);
  }

  verifyPhone(verificationId: string, phoneNumber?: string): S['Verification'] {
    const v = this.inSession(verificationId);
    const number = phoneNumber ?? v.data.phoneNumbers[0]?.phoneNumber;
    if (number === undefined) throw new SandboxError(400, `Verification ${verificationId} has no phone number; give one to verify`);
    if (!E164.test(number)) throw new SandboxError(400, `${number} is not an E.164 phone number`);
    const entry = v.data.phoneNumbers.find((p) => p.phoneNumber === number);
    if (entry) entry.isVerified = true;
    else v.data.phoneNumbers.push({ phoneNumber: number, isVerified: true });
    if (UNFINISHED.has(v.data.status)) this.track(v);
    if (v.data.phoneNumber === number) v.data.isPhoneNumberVerified = true;
    if (!v.verifiedPhones.includes(number)) v.verifiedPhones.push(number);
    this.afterInput(v, (user, now) => {
      const known = user.phoneNumbers.find((p) => p.phoneNumber === number);
      if (known?.verified) return false;
      if (known) known.verified = true;
      else user.phoneNumbers.push({ phoneNumber: number, createdAt: now, verified: true });
      return true;
    });
    return verificationView(v);
  }

  scan(verificationId: string, input: ScanInput): S['Verification'] {
    const v = this.verification(verificationId);
    if (v.data.status !== 'started') {
      throw new SandboxError(409, `Verification ${verificationId} cannot be scanned in status ${v.data.status}; open its link first`);
    }
    if (!['pass', 'review', 'fail'].includes(input.outcome)) throw new SandboxError(400, 'outcome must be pass, review or fail');
    const given = input.document ?? {};
    for (const field of ['dateOfBirth', 'expiryAt', 'issuedAt'] as const) {
      const value = given[field];
      if (value !== undefined && !CALENDAR_DATE.test(value)) throw new SandboxError(400, `document.${field} must be a date (YYYY-MM-DD)`);
    }
    const now = this.clock();
    const partnerName = v.data.firstName && v.data.lastName ? { firstName: v.data.firstName, lastName: v.data.lastName } : undefined;
    const document = scannedDocument(now, v.entered.name ?? partnerName ?? someName(), v.entered.dateOfBirth, given);
    v.scan = {
      document,
      documentId: this.newId(),
      estimatedAge: input.estimatedAge ?? ageBracket(document.dateOfBirth, now),
      image: faceImage(),
      faceUserId: this.matchingUser(v)?.id ?? this.newId(),
      accepted: input.outcome === 'pass',
    };
    this.refreshCollected(v);
    if (input.outcome === 'fail') this.setStatus(v, 'declined');
    else if (input.outcome === 'review') this.setStatus(v, 'inReview');
    else if (this.missingInput(v)) this.setStatus(v, 'waitingForUserInput');
    else this.complete(v);
    return verificationView(v);
  }

  acceptReview(verificationId: string): S['Verification'] {
    const v = this.verification(verificationId);
    if (v.data.status !== 'inReview') {
      throw new SandboxError(409, `Verification ${verificationId} is not in review (status ${v.data.status})`);
    }
    v.scan!.accepted = true;
    this.refreshCollected(v);
    this.complete(v);
    return verificationView(v);
  }

  expire(verificationId: string): S['Verification'] {
    const v = this.verification(verificationId);
    if (!EXPIRABLE.has(v.data.status)) {
      throw new SandboxError(409, `Verification ${verificationId} cannot expire in status ${v.data.status}`);
    }
    // Expiring "now" moves `validTo` to now, so the record reads as expired at `validTo`.
    v.data.validTo = this.nowIso();
    this.setStatus(v, 'expired', v.data.validTo);
    return verificationView(v);
  }

  expireDue(): void {
    const now = this.clock().getTime();
    if (now < this.nextExpiryMs) return;
    const due = [...this.expirable]
      .filter((v) => Date.parse(v.data.validTo) <= now)
      .sort((a, b) => Date.parse(a.data.validTo) - Date.parse(b.data.validTo));
    // The service expires a session when `validTo` is reached, so that is the time of the change.
    for (const v of due) this.setStatus(v, 'expired', v.data.validTo);
    let next = Infinity;
    for (const v of this.expirable) next = Math.min(next, Date.parse(v.data.validTo));
    this.nextExpiryMs = next;
  }

  markShareholder(userId: string, input: { sharesNumber: number }): S['Shares'] {
    const user = this.user(userId);
    if (!Number.isInteger(input.sharesNumber) || input.sharesNumber < 0) {
      throw new SandboxError(400, 'sharesNumber must be a whole number, 0 or more');
    }
    // Zero shares is how the sandbox takes shareholder status away again.
    user.shares = { isShareholder: input.sharesNumber > 0, sharesNumber: input.sharesNumber };
    user.updatedAt = this.nowIso();
    return { ...user.shares };
  }

  recordDelivery(eventId: string, result: DeliveryResult): boolean {
    return this.log.recordDelivery(eventId, result);
  }

  verificationIdForToken(token: string): string | undefined {
    return [...this.verifications.values()].find((v) => v.token === token)?.data.id;
  }

  reset(): void {
    const now = this.nowIso();
    this.webhookUrl = this.options.webhookUrl;
    this.partner = {
      id: this.newId(),
      webhookUrl: this.webhookUrl ?? UNSET_WEBHOOK_URL,
      name: 'Sandbox Partner',
      createdAt: now,
      updatedAt: now,
    };
    this.authKeys = [{ id: this.newId(), key: this.options.authKey, active: true, createdAt: now, updatedAt: now }];
    this.verifications = new Map();
    this.unfinishedByPhone = new Map();
    this.expirable = new Set();
    this.nextExpiryMs = Infinity;
    this.users = new Map();
    this.fingerprintIds = new Map();
    this.log = new WebhookLog(this.newId, () => this.nowIso());
  }

  seed(): SeedResult {
    return seedPartnerState(this);
  }

  // ---- lifecycle internals ------------------------------------------------

  private clock(): Date {
    return this.options.clock.now();
  }

  private nowIso(): string {
    return this.clock().toISOString();
  }

  /** Every read or change first lets time do its work. */
  private verification(id: string): StoredVerification {
    this.expireDue();
    const v = this.verifications.get(id);
    if (!v) throw new SandboxError(404, `Verification ${id} not found`);
    return v;
  }

  private user(id: string): StoredUser {
    this.expireDue();
    const u = this.users.get(id);
    if (!u) throw new SandboxError(404, `User ${id} not found`);
    return u;
  }

  private inSession(verificationId: string): StoredVerification {
    const v = this.verification(verificationId);
    if (!IN_SESSION.has(v.data.status)) {
      throw new SandboxError(409, `The end user cannot act on verification ${verificationId} in status ${v.data.status}`);
    }
    return v;
  }

  /**
   * After the end user entered data: a waiting session may now complete; a
   * completed one passes the data to its user (`user.updated`, as in the
   * "New user" sequence).
   */
  private afterInput(v: StoredVerification, updateUser: (user: StoredUser, now: string) => boolean): void {
    const now = this.nowIso();
    v.data.updatedAt = now;
    this.refreshCollected(v);
    if (v.data.status === 'waitingForUserInput' && !this.missingInput(v)) {
      this.complete(v);
    } else if (v.data.status === 'completed') {
      const user = this.users.get(v.data.userId!)!;
      if (updateUser(user, now)) {
        user.updatedAt = now;
        this.emitUser(user, 'user.updated');
      }
    }
  }

  private missingInput(v: StoredVerification): boolean {
    const required = (type: S['RequirementType']) => v.data.requirements.some((r) => r.type === type);
    return (required('firstAndLastName') && !v.entered.name) || (required('dateOfBirth') && !v.entered.dateOfBirth);
  }

  /** `collectedRequirements` follow from what was entered and scanned; `verified` means the scanned document confirms it. */
  private refreshCollected(v: StoredVerification): void {
    const { entered, scan } = v;
    const doc = scan?.document;
    v.data.collectedRequirements = v.data.requirements.map(({ type }): S['CollectedRequirement'] => {
      switch (type) {
        case 'firstAndLastName':
          return { type, result: entered.name ? { ...entered.name } : null, verified: !!doc && sameName(entered.name, doc) };
        case 'dateOfBirth':
          return {
            type,
            result: entered.dateOfBirth ? { dateOfBirth: entered.dateOfBirth } : null,
            verified: !!doc && entered.dateOfBirth === doc.dateOfBirth,
          };
        case 'document':
          return { type, result: doc ? { ...doc } : null, verified: !!scan?.accepted };
        case 'phoneNumbers':
          return { type, result: v.verifiedPhones.length ? { objects: v.verifiedPhones.map((phoneNumber) => ({ phoneNumber })) } : null };
      }
    });
  }

  /** The sandbox's stand-in for the face model: the user holding one of the session's phone numbers. */
  private matchingUser(v: StoredVerification): StoredUser | undefined {
    for (const { phoneNumber } of v.data.phoneNumbers) {
      const user = this.userWithPhone(phoneNumber);
      if (user) return user;
    }
    return v.scan ? this.users.get(v.scan.faceUserId) : undefined;
  }

  private userWithPhone(phoneNumber: string): StoredUser | undefined {
    return [...this.users.values()].find((u) => u.phoneNumbers.some((p) => p.phoneNumber === phoneNumber));
  }

  /** Completion, in the documented order: `verification.updated`, then `user.created` or `user.merged`, then `shareholder.verified`. */
  private complete(v: StoredVerification): void {
    const now = this.nowIso();
    const existing = this.matchingUser(v);
    const user = existing ?? this.newUser(v.scan!.faceUserId, now);
    this.attach(user, v, now);
    this.users.set(user.id, user);
    v.data.userId = user.id;
    v.data.previousUserId = null;
    this.setStatus(v, 'completed', now);
    this.emitUser(user, existing ? 'user.merged' : 'user.created');
    if (user.shares.isShareholder) this.emit({ event: this.envelope('shareholder', 'shareholder.verified', shareholderEventData(user)), userId: user.id });
  }

  private newUser(id: string, now: string): StoredUser {
    return {
      id,
      createdAt: now,
      updatedAt: now,
      phoneNumbers: [],
      externalUsers: [],
      estimatedAge: 'unknown',
      image: '',
      names: [],
      documents: [],
      shares: { isShareholder: false, sharesNumber: 0 },
      verificationIds: [],
    };
  }

  private attach(user: StoredUser, v: StoredVerification, now: string): void {
    const scan = v.scan!;
    user.verificationIds.push(v.data.id);
    for (const { phoneNumber, isVerified } of v.data.phoneNumbers) {
      // User phone numbers are E.164 in the document; a malformed session number is not carried over.
      if (!E164.test(phoneNumber)) continue;
      const known = user.phoneNumbers.find((p) => p.phoneNumber === phoneNumber);
      if (known) known.verified ||= isVerified;
      else user.phoneNumbers.push({ phoneNumber, createdAt: now, verified: isVerified });
    }
    if (!user.externalUsers.some((e) => e.id === v.data.externalUserId)) {
      user.externalUsers.push({ id: v.data.externalUserId, createdAt: now });
    }
    const name = effectiveName(v);
    if (!sameName(currentName(user), name)) {
      user.names.push({ ...name, createdAt: now });
      Object.assign(user, name);
    }
    user.dateOfBirth = v.entered.dateOfBirth ?? scan.document.dateOfBirth;
    user.estimatedAge = scan.estimatedAge;
    user.image = scan.image;
    if (!user.documents.some((d) => d.id === scan.documentId)) {
      user.documents.push({ id: scan.documentId, ...scan.document, createdAt: now });
    }
    user.updatedAt = now;
  }

  /** Rule 2 of operation 6: data another completed verification of the user also provides stays. */
  private detach(user: StoredUser, v: StoredVerification): void {
    user.verificationIds = user.verificationIds.filter((id) => id !== v.data.id);
    const others = this.attached(user).filter((o) => o.data.status === 'completed');
    const providedByOther = (test: (o: StoredVerification) => boolean) => others.some(test);
    if (!providedByOther((o) => o.data.externalUserId === v.data.externalUserId)) {
      user.externalUsers = user.externalUsers.filter((e) => e.id !== v.data.externalUserId);
    }
    for (const { phoneNumber } of v.data.phoneNumbers) {
      if (!providedByOther((o) => o.data.phoneNumbers.some((p) => p.phoneNumber === phoneNumber))) {
        user.phoneNumbers = user.phoneNumbers.filter((p) => p.phoneNumber !== phoneNumber);
      }
    }
    const name = effectiveName(v);
    if (!providedByOther((o) => sameName(effectiveName(o), name))) {
      user.names = user.names.filter((n) => !sameName(n, name));
      const latest = user.names.at(-1);
      user.firstName = latest?.firstName;
      user.lastName = latest?.lastName;
      if (!latest) {
        delete user.firstName;
        delete user.lastName;
      }
    }
    user.updatedAt = this.nowIso();
  }

  private attached(user: StoredUser): StoredVerification[] {
    return user.verificationIds.flatMap((id) => this.verifications.get(id) ?? []);
  }

  private devicesOf(user: StoredUser): Set<string> {
    return new Set(this.attached(user).flatMap((v) => v.devices));
  }

  // ---- events ---------------------------------------------------------------

  /** Every status change emits `verification.updated` (source, States notes). */
  private setStatus(v: StoredVerification, status: VerificationStatus, at = this.nowIso()): void {
    v.data.status = status;
    v.data.updatedAt = at;
    if (!EXPIRABLE.has(status)) this.expirable.delete(v);
    if (!UNFINISHED.has(status)) this.untrack(v);
    this.emitVerification(v, 'verification.updated', at);
  }

  /** Indexes a verification that is open or in review (see the fields). */
  private track(v: StoredVerification): void {
    for (const { phoneNumber } of v.data.phoneNumbers) {
      let set = this.unfinishedByPhone.get(phoneNumber);
      if (!set) this.unfinishedByPhone.set(phoneNumber, (set = new Set()));
      set.add(v);
    }
    if (EXPIRABLE.has(v.data.status)) {
      this.expirable.add(v);
      this.nextExpiryMs = Math.min(this.nextExpiryMs, Date.parse(v.data.validTo));
    }
  }

  private untrack(v: StoredVerification): void {
    for (const { phoneNumber } of v.data.phoneNumbers) {
      const set = this.unfinishedByPhone.get(phoneNumber);
      set?.delete(v);
      if (set?.size === 0) this.unfinishedByPhone.delete(phoneNumber);
    }
  }

  private envelope<E extends WebhookEvent>(dataType: E['dataType'], eventType: E['eventType'], data: E['data'], at = this.nowIso()): E {
    return { eventId: this.newId(), dataType, eventType, createdAt: at, data } as E;
  }

  private emitVerification(v: StoredVerification, eventType: 'verification.created' | 'verification.updated', at?: string): void {
    this.emit({ event: this.envelope('verification', eventType, verificationEventData(v), at), verificationId: v.data.id }, v.data.metadata);
  }

  private emitUser(user: StoredUser, eventType: 'user.created' | 'user.merged' | 'user.updated' | 'user.deleted'): void {
    this.emit({ event: this.envelope('user', eventType, userEventData(user)), userId: user.id });
  }

  /** Records the webhook in the history it belongs to, then hands it to the HTTP layer. */
  // An event is built from copies of the store and never changed after, so
  // the history and the listeners share it rather than copy it again.
  private emit(emitted: EmittedEvent, metadata?: Record<string, unknown>): void {
    this.log.add(emitted, metadata);
    this.options.onEvent(emitted);
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
  return [...new Set(types)].map((type) => ({ type }));
}

/** The name a verification gives its user: typed by the user, else read from the document. */
function effectiveName(v: StoredVerification): PersonName {
  const source = v.entered.name ?? v.scan!.document;
  return { firstName: source.firstName, lastName: source.lastName };
}

function currentName(user: StoredUser): PersonName | undefined {
  return user.firstName !== undefined && user.lastName !== undefined ? { firstName: user.firstName, lastName: user.lastName } : undefined;
}
