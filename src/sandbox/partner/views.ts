// Stored records as the partner document shapes them; every answer is a copy,
// event data is not (it is serialized at once).
import type { components } from '../../../generated/types/partner.js';
import type { StoredUser, StoredVerification } from './records.js';
import { jsonCopy } from '../common/json-copy.js';

type S = components['schemas'];

/** A verification as answered; `phoneNumbers` and `requirements` always there, as the control API promises. */
export type VerificationView = S['Verification'] & Pick<StoredVerification['data'], 'phoneNumbers' | 'requirements'>;

export const verificationView = (v: StoredVerification): VerificationView => jsonCopy(v.data);

/** The create answer: no `updatedAt` (P10; undefined, so the copy leaves it out and every other field keeps its place). */
export const createdVerificationView = (v: StoredVerification) =>
  jsonCopy({ ...v.data, updatedAt: undefined }) as S['CreatedVerification'];

/**
 * `data` of verification webhooks: the documented field list; `userId`/`previousUserId` only in their status.
 * Shares the record's arrays, and leaves absent fields undefined: the event is serialized at once.
 */
export function verificationEventData(v: StoredVerification): S['VerificationEventData'] {
  const d = v.data;
  return {
    verificationId: d.id,
    status: d.status,
    redirectUrl: d.redirectUrl,
    externalUserId: d.externalUserId,
    phoneNumbers: d.phoneNumbers,
    requirements: d.requirements,
    collectedRequirements: d.collectedRequirements,
    validTo: d.validTo,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    errorRedirectUrl: d.errorRedirectUrl,
    phoneNumber: d.phoneNumber,
    isPhoneNumberVerified: d.isPhoneNumberVerified,
    firstName: d.firstName,
    lastName: d.lastName,
    requireFirstAndLastName: d.requireFirstAndLastName,
    userId: d.status === 'completed' ? d.userId : undefined,
    previousUserId: d.status === 'reverted' ? d.previousUserId : undefined,
    reason: d.reason,
    metadata: d.metadata,
  };
}

export const userListItem = ({ id, phoneNumbers, externalUsers, createdAt, updatedAt }: StoredUser): S['User'] =>
  jsonCopy({ id, phoneNumbers, externalUsers, createdAt, updatedAt });

/** The user's name and date of birth, each absent until known. */
const personal = (u: StoredUser) => ({ firstName: u.firstName, lastName: u.lastName, dateOfBirth: u.dateOfBirth });

export const userDetailsView = (u: StoredUser): S['UserDetails'] =>
  jsonCopy({
    ...userListItem(u),
    ...personal(u),
    estimatedAge: u.estimatedAge,
    image: u.image,
    names: u.names,
    documents: u.documents,
  });

/** `data` of user webhooks; shares the user's arrays, as the event is serialized at once. */
export function userEventData(u: StoredUser): S['UserEventData'] {
  const { id: userId, createdAt, estimatedAge, phoneNumbers, names, externalUsers } = u;
  return { userId, ...personal(u), createdAt, estimatedAge, phoneNumbers, names, externalUsers };
}

export const shareholderEventData = (u: StoredUser): S['ShareholderEventData'] => ({
  userId: u.id,
  isShareholder: true,
  externalUserIds: u.externalUsers.map((e) => e.id),
});
