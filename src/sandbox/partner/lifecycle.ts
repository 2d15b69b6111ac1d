// The verification lifecycle of the partner source document (states table,
// rules of operations 5 and 6, event sequences) as the control API drives
// it: the end user opening the link, entering data and scanning, the
// reviewer, and time. Completion attaches a verification to its user.
import type { components } from '../../../generated/types/partner.js';
import { SandboxError } from './api.js';
import type { DeliveryResult, PartnerControl, ScanInput, SeedResult } from './control.js';
import { ageBracket, CALENDAR_DATE, E164, faceImage, newDeviceId, newFingerprintEventId, newFingerprintId, scannedDocument, someName } from './fixtures.js';
import { own, shared, type PersonName, type StoredUser, type StoredVerification } from './records.js';
import { seedPartnerState } from './seed.js';
import { EXPIRABLE, OPEN, PartnerStore, UNFINISHED } from './store.js';
import { shareholderEventData, verificationView } from './views.js';
import type { PartnerApi } from './api.js';

type S = components['schemas'];

const IN_SESSION: ReadonlySet<string> = new Set(['started', 'waitingForUserInput', 'inReview', 'completed']);

export const sameName = (a: PersonName | undefined, b: PersonName | undefined) =>
  !!a && !!b && a.firstName.trim().toLowerCase() === b.firstName.trim().toLowerCase() && a.lastName.trim().toLowerCase() === b.lastName.trim().toLowerCase();

export abstract class PartnerLifecycle extends PartnerStore implements PartnerControl {
  openLink(verificationId: string, options: { deviceId?: string } = {}): S['Verification'] {
    const v = this.verification(verificationId);
    if (!EXPIRABLE.has(v.data.status)) {
      throw new SandboxError(409, `The link of verification ${verificationId} no longer opens: its status is ${v.data.status}`);
    }
    const now = this.nowIso();
    const sessionId = this.newId();
    const deviceId = options.deviceId ?? newDeviceId(this.rand);
    (v.activities = own(v.activities)).push({ activity: 'startSession', sessionId, createdAt: now });
    if (!v.devices.includes(deviceId)) (v.devices = own(v.devices)).push(deviceId);
    if (!this.fingerprintIds.has(deviceId)) this.fingerprintIds.set(deviceId, newFingerprintId(this.rand));
    (v.fingerprintEvents = own(v.fingerprintEvents)).push({
      deviceId,
      id: newFingerprintEventId(this.rand),
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
    this.reindex(v);
    if (v.data.status === 'created') this.setStatus(v, 'started');
    return verificationView(v);
  }

  enterName(verificationId: string, name: { firstName: string; lastName: string }): S['Verification'] {
    const v = this.inSession(verificationId);
    const firstName = name.firstName?.trim();
    const lastName = name.lastName?.trim();
    if (!firstName || !lastName) throw new SandboxError(400, 'firstName and lastName must not be empty');
    (v.entered = own(v.entered)).name = { firstName, lastName };
    this.afterInput(v, (user, now) => {
      if (sameName(currentName(user), v.entered.name)) return false;
      user.names.push({ firstName, lastName, createdAt: now });
      Object.assign(user, { firstName, lastName });
      return true;
    });
    return verificationView(v);
  }

  enterDateOfBirth(verificationId: string, input: { dateOfBirth: string }): S['Verification'] {
    const v = this.inSession(verificationId);
    if (!CALENDAR_DATE.test(input.dateOfBirth ?? '')) throw new SandboxError(400, 'dateOfBirth must be a date (YYYY-MM-DD)');
    (v.entered = own(v.entered)).dateOfBirth = input.dateOfBirth;
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
    else {
      // Rule 2 of operation 5 holds here too: the open session that takes a
      // number closes the other open ones holding it (DECISIONS S29).
      if (OPEN.has(v.data.status)) {
        for (const other of [...this.unfinishedByPhone.get(number)]) if (other !== v && OPEN.has(other.data.status)) this.setStatus(other, 'closed');
      }
      v.data.phoneNumbers.push({ phoneNumber: number, isVerified: true });
    }
    this.reindex(v);
    if (UNFINISHED.has(v.data.status)) this.track(v);
    if (v.data.phoneNumber === number) v.data.isPhoneNumberVerified = true;
    if (!v.verifiedPhones.includes(number)) (v.verifiedPhones = own(v.verifiedPhones)).push(number);
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
    const name = v.entered.name ?? partnerName ?? someName(this.nameTurn++);
    const document = scannedDocument(this.rand, now, name, v.entered.dateOfBirth, given);
    v.scan = {
      document,
      documentId: this.newId(),
      estimatedAge: input.estimatedAge ?? ageBracket(document.dateOfBirth, now),
      image: faceImage(this.rand),
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

  override expireDue(): number {
    const now = this.options.clock.nowMs?.() ?? this.clock().getTime();
    if (now < this.nextExpiryMs) return 0;
    let expired = 0;
    // The service expires a session when `validTo` is reached, so that is the time of the change.
    for (const v of this.expiries.popDue(now)) {
      // Left the expirable statuses (or was expired by hand) since it was queued.
      if (!EXPIRABLE.has(v.data.status)) continue;
      this.setStatus(v, 'expired', v.data.validTo);
      expired++;
    }
    return expired;
  }

  markShareholder(userId: string, input: { sharesNumber: number }): S['Shares'] {
    const user = this.user(userId);
    if (!Number.isInteger(input.sharesNumber) || input.sharesNumber < 0) {
      throw new SandboxError(400, 'sharesNumber must be a whole number, 0 or more');
    }
    // Zero shares is how the sandbox takes shareholder status away again.
    user.shares = { isShareholder: input.sharesNumber > 0, sharesNumber: input.sharesNumber };
    user.updatedAt = this.nowIso();
    this.reindexUser(user);
    return { ...user.shares };
  }

  recordDelivery(eventId: string, result: DeliveryResult): boolean {
    return this.log.recordDelivery(eventId, result);
  }

  verificationIdForToken(token: string): string | undefined {
    this.byToken ??= new Map(this.order.map((v) => [v.token, v]));
    return this.byToken.get(token)?.data.id;
  }

  webhookTarget(): string | undefined {
    return this.webhookUrl;
  }

  seed(): SeedResult {
    return seedPartnerState(this as unknown as PartnerApi & PartnerControl, this.newId);
  }

  // ---- internals ----------------------------------------------------------------

  protected inSession(verificationId: string): StoredVerification {
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
        this.reindexUser(user);
        this.emitUser(user, 'user.updated');
      }
    }
  }

  private missingInput(v: StoredVerification): boolean {
    const required = (type: S['RequirementType']) => v.data.requirements.some((r) => r.type === type);
    return (required('firstAndLastName') && !v.entered.name) || (required('dateOfBirth') && !v.entered.dateOfBirth);
  }

  /** `collectedRequirements` follow from what was entered and scanned; `verified` means the scanned document confirms it. */
  protected refreshCollected(v: StoredVerification): void {
    v.data.collectedRequirements = v.data.requirements.map(({ type }) => nothingYetShared(collected(v, type)));
  }

  /** The sandbox's stand-in for the face model: the user holding one of the session's phone numbers. */
  private matchingUser(v: StoredVerification): StoredUser | undefined {
    for (const { phoneNumber } of v.data.phoneNumbers) {
      const user = this.userWithPhone(phoneNumber);
      if (user) return user;
    }
    return v.scan ? this.users.get(v.scan.faceUserId) : undefined;
  }

  /** Completion, in the documented order: `verification.updated`, then `user.created` or `user.merged`, then `shareholder.verified`. */
  private complete(v: StoredVerification): void {
    const now = this.nowIso();
    const existing = this.matchingUser(v);
    const user = existing ?? newUser(v.scan!.faceUserId, now);
    this.attach(user, v, now);
    this.addUser(user);
    this.reindexUser(user);
    v.data.userId = user.id;
    v.data.previousUserId = null;
    this.setStatus(v, 'completed', now);
    this.emitUser(user, existing ? 'user.merged' : 'user.created');
    if (user.shares.isShareholder) this.emit(this.envelope('shareholder', 'shareholder.verified', shareholderEventData(user)), { userId: user.id });
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
  protected detach(user: StoredUser, v: StoredVerification): void {
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
    this.reindexUser(user);
  }

  protected attached(user: StoredUser): StoredVerification[] {
    return user.verificationIds.flatMap((id) => this.verifications.get(id) ?? []);
  }

  protected devicesOf(user: StoredUser): Set<string> {
    return new Set(this.attached(user).flatMap((v) => v.devices));
  }
}

function newUser(id: string, now: string): StoredUser {
  return {
    seq: -1,
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

/** The name a verification gives its user: typed by the user, else read from the document. */
function effectiveName(v: StoredVerification): PersonName {
  const source = v.entered.name ?? v.scan!.document;
  return { firstName: source.firstName, lastName: source.lastName };
}

export function currentName(user: StoredUser): PersonName | undefined {
  return user.firstName !== undefined && user.lastName !== undefined ? { firstName: user.firstName, lastName: user.lastName } : undefined;
}

function collected(v: StoredVerification, type: S['RequirementType']): S['CollectedRequirement'] {
  const { entered, scan } = v;
  const doc = scan?.document;
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
}

/**
 * A requirement with nothing collected yet (`result` null, not verified) is
 * the same for every verification, so records share it (entries are
 * replaced on every refresh, never changed in place).
 */
function nothingYetShared(item: S['CollectedRequirement']): S['CollectedRequirement'] {
  if (item.result !== null || ('verified' in item && item.verified)) return item;
  return shared(`nothing collected ${item.type}${'verified' in item ? ' unverified' : ''}`, () => item);
}
