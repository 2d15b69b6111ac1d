// The verification lifecycle of the partner document (states table, rules of
// operations 5 and 6, event sequences) as functions the control API drives.
import type { components } from '../../../generated/types/partner.js';
import type { components as ControlComponents } from '../../../generated/types/sandbox.js';
import { SandboxError } from './api.js';
import {
  ageBracket,
  CALENDAR_DATE,
  DEVICE,
  E164,
  faceImage,
  newDeviceId,
  newFingerprintEventId,
  newFingerprintId,
  scannedDocument,
  someName,
} from './fixtures.js';
import type { PersonName, StoredUser, StoredVerification } from './records.js';
import {
  emitUser,
  EXPIRABLE,
  nowIso,
  OPEN,
  setStatus,
  trackPhones,
  unfinishedWith,
  user as findUser,
  userWithPhone,
  verification,
  type PartnerStore,
} from './store.js';
import { verificationView, type VerificationView } from './views.js';

type S = components['schemas'];
type Control = ControlComponents['schemas'];

const IN_SESSION: ReadonlySet<string> = new Set(['started', 'waitingForUserInput', 'inReview', 'completed']);
/** Where the scan decides the session (the table's "user progress"): `waitingForUserInput` too, whose rows also lead to `inReview` or `declined`. */
const SCANNABLE: ReadonlySet<string> = new Set(['started', 'waitingForUserInput']);

const same = (a?: string, b?: string) =>
  a !== undefined && b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();
/** Names match ignoring case and surrounding spaces; an unknown name (a user without one) matches none. */
const sameName = (a?: Partial<PersonName>, b?: Partial<PersonName>) =>
  same(a?.firstName, b?.firstName) && same(a?.lastName, b?.lastName);

export const requires = (v: StoredVerification, type: S['RequirementType']) =>
  v.data.requirements.some((r) => r.type === type);

export function openLink(
  store: PartnerStore,
  verificationId: string,
  options: { deviceId?: string } = {},
): VerificationView {
  const v = verification(store, verificationId);
  if (!EXPIRABLE.has(v.data.status))
    throw new SandboxError(
      409,
      `The link of verification ${verificationId} no longer opens: its status is ${v.data.status}`,
    );
  const now = nowIso(store);
  const sessionId = store.newId();
  const deviceId = options.deviceId ?? newDeviceId();
  v.activities.push({ activity: 'startSession', sessionId, createdAt: now });
  if (!v.devices.includes(deviceId)) v.devices.push(deviceId);
  const fingerprintId = fingerprintIdOf(store, deviceId) ?? newFingerprintId();
  const data = { verificationId, sessionId, deviceId, ...DEVICE, collectedAt: now };
  v.fingerprintEvents.push({ deviceId, fingerprintId, id: newFingerprintEventId(), data });
  if (v.data.status === 'created') setStatus(store, v, 'started');
  return verificationView(v);
}

/** A device keeps the fingerprint id it was first given, across verifications. */
const fingerprintIdOf = (store: PartnerStore, deviceId: string) =>
  [...store.verifications.values()].flatMap((v) => v.fingerprintEvents).find((e) => e.deviceId === deviceId)
    ?.fingerprintId;

export function enterName(
  store: PartnerStore,
  verificationId: string,
  name: { firstName: string; lastName: string },
): VerificationView {
  const v = inSession(store, verificationId);
  const firstName = name.firstName?.trim();
  const lastName = name.lastName?.trim();
  if (!firstName || !lastName) throw new SandboxError(400, 'firstName and lastName must not be empty');
  v.entered.name = { firstName, lastName };
  afterInput(store, v, (user, now) => rename(user, { firstName, lastName }, now));
  return verificationView(v);
}

export function enterDateOfBirth(
  store: PartnerStore,
  verificationId: string,
  input: { dateOfBirth: string },
): VerificationView {
  const v = inSession(store, verificationId);
  if (!CALENDAR_DATE.test(input.dateOfBirth ?? ''))
    throw new SandboxError(400, 'dateOfBirth must be a date (YYYY-MM-DD)');
  v.entered.dateOfBirth = input.dateOfBirth;
  afterInput(store, v, (user) => {
    if (user.dateOfBirth === input.dateOfBirth) return false;
    user.dateOfBirth = input.dateOfBirth;
    return true;
  });
  return verificationView(v);
}

export function verifyPhone(store: PartnerStore, verificationId: string, phoneNumber?: string): VerificationView {
  const v = inSession(store, verificationId);
  const number = phoneNumber ?? v.data.phoneNumbers[0]?.phoneNumber;
  if (number === undefined)
    throw new SandboxError(400, `Verification ${verificationId} has no phone number; give one to verify`);
  if (!E164.test(number)) throw new SandboxError(400, `${number} is not an E.164 phone number`);
  const entry = v.data.phoneNumbers.find((p) => p.phoneNumber === number);
  if (entry) entry.isVerified = true;
  else {
    // Rule 2 of operation 5 holds here too: an open session taking a number closes the other open ones holding it (S29).
    const holders = OPEN.has(v.data.status) ? unfinishedWith(store, [number]) : [];
    for (const other of holders) if (other !== v && OPEN.has(other.data.status)) setStatus(store, other, 'closed');
    v.data.phoneNumbers.push({ phoneNumber: number, isVerified: true });
    trackPhones(store, v);
  }
  if (v.data.phoneNumber === number) v.data.isPhoneNumberVerified = true;
  if (!v.verifiedPhones.includes(number)) v.verifiedPhones.push(number);
  afterInput(store, v, (user, now) => {
    const known = user.phoneNumbers.find((p) => p.phoneNumber === number);
    if (known?.verified) return false;
    if (known) known.verified = true;
    else user.phoneNumbers.push({ phoneNumber: number, createdAt: now, verified: true });
    return true;
  });
  return verificationView(v);
}

/**
 * A simulated document and face scan: its outcome, and document fields it fixes (the rest are generated).
 * `phoneNumberOfAnotherUser` is the documents' example of a failed session: the face is not that of the user
 * holding one of the session's phone numbers, so the session is declined rather than merged (S6).
 */
export function scan(store: PartnerStore, verificationId: string, input: Control['Scan']): VerificationView {
  const v = verification(store, verificationId);
  const { status } = v.data;
  if (!SCANNABLE.has(status)) {
    const hint = status === 'created' ? 'open its link first' : 'only started and waitingForUserInput sessions scan';
    throw new SandboxError(409, `Verification ${verificationId} cannot be scanned in status ${status}; ${hint}`);
  }
  const anotherUsersPhone = input.outcome === 'phoneNumberOfAnotherUser';
  if (anotherUsersPhone && !phoneHolder(store, v)) {
    const numbers = v.data.phoneNumbers.map((p) => p.phoneNumber).join(', ') || 'none';
    throw new SandboxError(
      409,
      `No user holds a phone number of verification ${verificationId} (its numbers: ${numbers}), so it cannot be declined for one; complete another verification with one of its numbers first, or scan with outcome fail`,
    );
  }
  const given = input.document ?? {};
  const now = store.options.clock.now();
  const { firstName, lastName } = v.data;
  const name =
    v.entered.name ?? (firstName && lastName ? { firstName, lastName } : undefined) ?? someName(store.nameTurn++);
  const document = scannedDocument(now, name, v.entered.dateOfBirth, given);
  v.scan = {
    document,
    documentId: store.newId(),
    estimatedAge: input.estimatedAge ?? ageBracket(document.dateOfBirth, now),
    image: faceImage(),
    // Another user's phone number: the face is someone else's, never the holder's.
    faceUserId: (anotherUsersPhone ? undefined : matchingUser(store, v)?.id) ?? store.newId(),
    accepted: input.outcome === 'pass',
  };
  refreshCollected(v);
  if (input.outcome === 'fail' || anotherUsersPhone) setStatus(store, v, 'declined');
  else if (input.outcome === 'review') setStatus(store, v, 'inReview');
  else if (!missingInput(v)) complete(store, v);
  else if (status === 'started') setStatus(store, v, 'waitingForUserInput');
  // A passed scan again while still waiting: no status change, so no webhook.
  else v.data.updatedAt = nowIso(store);
  return verificationView(v);
}

export function acceptReview(store: PartnerStore, verificationId: string): VerificationView {
  const v = verification(store, verificationId);
  if (v.data.status !== 'inReview')
    throw new SandboxError(409, `Verification ${verificationId} is not in review (status ${v.data.status})`);
  v.scan!.accepted = true;
  refreshCollected(v);
  complete(store, v);
  return verificationView(v);
}

/** Expiring "now" moves `validTo` to now, so the record reads as expired at `validTo`. */
export const expire = (store: PartnerStore, verificationId: string) =>
  endSession(store, verificationId, 'expired', 'expire');

/** The table's "closure" of an unfinished session, which a new verification for the same phone number does only to `created` and `started` ones (rule 2 of operation 5). */
export const closeVerification = (store: PartnerStore, verificationId: string) =>
  endSession(store, verificationId, 'closed', 'be closed');

function endSession(
  store: PartnerStore,
  verificationId: string,
  status: 'expired' | 'closed',
  verb: string,
): VerificationView {
  const v = verification(store, verificationId);
  if (!EXPIRABLE.has(v.data.status))
    throw new SandboxError(409, `Verification ${verificationId} cannot ${verb} in status ${v.data.status}`);
  const at = nowIso(store);
  if (status === 'expired') v.data.validTo = at;
  setStatus(store, v, status, at);
  return verificationView(v);
}

export function markShareholder(store: PartnerStore, userId: string, input: { sharesNumber: number }): S['Shares'] {
  const user = findUser(store, userId);
  if (!Number.isInteger(input.sharesNumber) || input.sharesNumber < 0)
    throw new SandboxError(400, 'sharesNumber must be a whole number, 0 or more');
  // Zero shares is how the sandbox takes shareholder status away again.
  user.shares = { isShareholder: input.sharesNumber > 0, sharesNumber: input.sharesNumber };
  user.updatedAt = nowIso(store);
  return { ...user.shares };
}

function inSession(store: PartnerStore, verificationId: string): StoredVerification {
  const v = verification(store, verificationId);
  if (!IN_SESSION.has(v.data.status))
    throw new SandboxError(409, `The end user cannot act on verification ${verificationId} in status ${v.data.status}`);
  return v;
}

/**
 * After the end user entered data: a waiting session may now complete; a completed one passes
 * the data to its user (`user.updated`, as in the "New user" sequence) if `updateUser` changed it.
 */
function afterInput(
  store: PartnerStore,
  v: StoredVerification,
  updateUser: (user: StoredUser, now: string) => boolean,
): void {
  const now = nowIso(store);
  v.data.updatedAt = now;
  refreshCollected(v);
  if (v.data.status === 'waitingForUserInput' && !missingInput(v)) {
    complete(store, v);
    return;
  }
  const user = v.data.status === 'completed' ? store.users.get(v.data.userId!)! : undefined;
  if (!user || !updateUser(user, now)) return;
  user.updatedAt = now;
  emitUser(store, user, 'user.updated');
}

const missingInput = (v: StoredVerification) =>
  (requires(v, 'firstAndLastName') && !v.entered.name) || (requires(v, 'dateOfBirth') && !v.entered.dateOfBirth);

/** `collectedRequirements` follow from what was entered and scanned; `verified` means the scanned document confirms it. */
export function refreshCollected(v: StoredVerification): void {
  const { entered, scan, verifiedPhones } = v;
  const doc = scan?.document;
  // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every requirement type, as tsc checks
  v.data.collectedRequirements = v.data.requirements.map(({ type }): S['CollectedRequirement'] => {
    switch (type) {
      case 'firstAndLastName':
        return {
          type,
          result: entered.name ? { ...entered.name } : null,
          verified: !!doc && sameName(entered.name, doc),
        };
      case 'dateOfBirth':
        return {
          type,
          result: entered.dateOfBirth ? { dateOfBirth: entered.dateOfBirth } : null,
          verified: !!doc && entered.dateOfBirth === doc.dateOfBirth,
        };
      case 'document':
        return { type, result: doc ? { ...doc } : null, verified: !!scan?.accepted };
      case 'phoneNumbers':
        return {
          type,
          result: verifiedPhones.length ? { objects: verifiedPhones.map((phoneNumber) => ({ phoneNumber })) } : null,
        };
    }
  });
}

/** The first user holding one of the session's phone numbers. */
export const phoneHolder = (store: PartnerStore, v: StoredVerification): StoredUser | undefined =>
  v.data.phoneNumbers.map((p) => userWithPhone(store, p.phoneNumber)).find((user) => user !== undefined);

/** The sandbox's stand-in for the face model: the user holding one of the session's phone numbers (S6). */
const matchingUser = (store: PartnerStore, v: StoredVerification): StoredUser | undefined =>
  phoneHolder(store, v) ?? (v.scan ? store.users.get(v.scan.faceUserId) : undefined);

/** Completion, in the documented order: `verification.updated`, then `user.created` or `user.merged`, then `shareholder.verified`. */
function complete(store: PartnerStore, v: StoredVerification): void {
  const now = nowIso(store);
  const existing = matchingUser(store, v);
  const user: StoredUser = existing ?? {
    id: v.scan!.faceUserId,
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
  attach(user, v, now);
  store.users.set(user.id, user);
  v.data.userId = user.id;
  v.data.previousUserId = null;
  setStatus(store, v, 'completed', now);
  emitUser(store, user, existing ? 'user.merged' : 'user.created');
  if (user.shares.isShareholder) emitUser(store, user, 'shareholder.verified');
}

function attach(user: StoredUser, v: StoredVerification, now: string): void {
  const scan = v.scan!;
  user.verificationIds.push(v.data.id);
  for (const { phoneNumber, isVerified } of v.data.phoneNumbers) {
    // User phone numbers are E.164 in the document; a malformed session number is not carried over.
    if (!E164.test(phoneNumber)) continue;
    const known = user.phoneNumbers.find((p) => p.phoneNumber === phoneNumber);
    if (known) known.verified ||= isVerified;
    else user.phoneNumbers.push({ phoneNumber, createdAt: now, verified: isVerified });
  }
  if (!user.externalUsers.some((e) => e.id === v.data.externalUserId))
    user.externalUsers.push({ id: v.data.externalUserId, createdAt: now });
  rename(user, nameOf(v), now);
  user.dateOfBirth = v.entered.dateOfBirth ?? scan.document.dateOfBirth;
  user.estimatedAge = scan.estimatedAge;
  user.image = scan.image;
  if (!user.documents.some((d) => d.id === scan.documentId))
    user.documents.push({ id: scan.documentId, ...scan.document, createdAt: now });
  user.updatedAt = now;
}

/** Rule 2 of operation 6: data another completed verification of the user also provides stays. */
export function detach(store: PartnerStore, user: StoredUser, v: StoredVerification): void {
  user.verificationIds = user.verificationIds.filter((id) => id !== v.data.id);
  const others = attached(store, user).filter((o) => o.data.status === 'completed');
  const { externalUserId } = v.data;
  if (!others.some((o) => o.data.externalUserId === externalUserId))
    user.externalUsers = user.externalUsers.filter((e) => e.id !== externalUserId);
  for (const { phoneNumber } of v.data.phoneNumbers) {
    const held = (o: StoredVerification) => o.data.phoneNumbers.some((p) => p.phoneNumber === phoneNumber);
    if (!others.some(held)) user.phoneNumbers = user.phoneNumbers.filter((p) => p.phoneNumber !== phoneNumber);
  }
  const name = nameOf(v);
  if (!others.some((o) => sameName(nameOf(o), name))) {
    user.names = user.names.filter((n) => !sameName(n, name));
    const latest = user.names.at(-1);
    if (latest) Object.assign(user, { firstName: latest.firstName, lastName: latest.lastName });
    else {
      delete user.firstName;
      delete user.lastName;
    }
  }
  user.updatedAt = nowIso(store);
}

/** The verifications whose data the user holds, oldest first. */
export const attached = (store: PartnerStore, user: StoredUser): StoredVerification[] =>
  user.verificationIds.flatMap((id) => store.verifications.get(id) ?? []);

/** The name a verification gives its user: typed by the user, else read from the document. */
function nameOf(v: StoredVerification): PersonName {
  const source = v.entered.name ?? v.scan!.document;
  return { firstName: source.firstName, lastName: source.lastName };
}

/** A name the user does not go by yet becomes its current one, kept in `names`; says whether it did. */
function rename(user: StoredUser, name: PersonName, now: string): boolean {
  if (sameName(user, name)) return false;
  user.names.push({ ...name, createdAt: now });
  Object.assign(user, name);
  return true;
}
