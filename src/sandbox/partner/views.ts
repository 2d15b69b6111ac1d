// Stored records as the partner document shapes them. Every answer view is a
// copy, so callers never share state with the store; event data is not, as
// it is serialized the moment it is made (`emit` in store.ts).
import type { components } from '../../../generated/types/partner.js';
import type { StoredUser, StoredVerification } from './records.js';
import { jsonCopy } from '../common/json-copy.js';

type S = components['schemas'];

const copy = jsonCopy;

export function verificationView(v: StoredVerification): S['Verification'] {
  return copy(v.data);
}

/** The create answer: no `updatedAt` (DECISIONS P10), status `created`, no user and no results yet. */
export function createdVerificationView(v: StoredVerification): S['CreatedVerification'] {
  const d = v.data;
  return copy({
    id: d.id,
    url: d.url,
    phoneNumber: d.phoneNumber,
    isPhoneNumberVerified: d.isPhoneNumberVerified,
    phoneNumbers: d.phoneNumbers,
    firstName: d.firstName,
    lastName: d.lastName,
    requireFirstAndLastName: d.requireFirstAndLastName,
    requirements: d.requirements,
    collectedRequirements: d.collectedRequirements.map((c) =>
      c.type === 'phoneNumbers' ? { type: c.type, result: null } : { type: c.type, result: null, verified: c.verified },
    ),
    userId: null,
    previousUserId: null,
    externalUserId: d.externalUserId,
    redirectUrl: d.redirectUrl,
    errorRedirectUrl: d.errorRedirectUrl,
    reason: d.reason,
    author: d.author,
    status: 'created',
    metadata: d.metadata,
    validTo: d.validTo,
    createdAt: d.createdAt,
  } as S['CreatedVerification']);
}

/**
 * `data` of verification webhooks: the documented field list; `userId`/`previousUserId` only in their status.
 * Shares the record's arrays: the event is serialized at once.
 */
export function verificationEventData(v: StoredVerification): S['VerificationEventData'] {
  const d = v.data;
  const data: S['VerificationEventData'] = {
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
  };
  if (d.errorRedirectUrl !== undefined) data.errorRedirectUrl = d.errorRedirectUrl;
  if (d.phoneNumber !== undefined) data.phoneNumber = d.phoneNumber;
  if (d.isPhoneNumberVerified !== undefined) data.isPhoneNumberVerified = d.isPhoneNumberVerified;
  if (d.firstName !== undefined) data.firstName = d.firstName;
  if (d.lastName !== undefined) data.lastName = d.lastName;
  if (d.requireFirstAndLastName !== undefined) data.requireFirstAndLastName = d.requireFirstAndLastName;
  if (d.status === 'completed') data.userId = d.userId;
  if (d.status === 'reverted') data.previousUserId = d.previousUserId;
  if (d.reason !== undefined) data.reason = d.reason;
  if (d.metadata !== undefined) data.metadata = d.metadata;
  return data;
}

export function userListItem(u: StoredUser): S['User'] {
  return copy({
    id: u.id,
    phoneNumbers: u.phoneNumbers,
    externalUsers: u.externalUsers,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
  });
}

const personal = (u: StoredUser) => ({
  ...(u.firstName !== undefined && { firstName: u.firstName }),
  ...(u.lastName !== undefined && { lastName: u.lastName }),
  ...(u.dateOfBirth !== undefined && { dateOfBirth: u.dateOfBirth }),
});

export function userDetailsView(u: StoredUser): S['UserDetails'] {
  return copy({
    ...userListItem(u),
    ...personal(u),
    estimatedAge: u.estimatedAge,
    image: u.image,
    names: u.names,
    documents: u.documents,
  });
}

/** `data` of user webhooks; shares the user's arrays, as the event is serialized at once. */
export function userEventData(u: StoredUser): S['UserEventData'] {
  return {
    userId: u.id,
    ...personal(u),
    createdAt: u.createdAt,
    estimatedAge: u.estimatedAge,
    phoneNumbers: u.phoneNumbers,
    names: u.names,
    externalUsers: u.externalUsers,
  };
}

export function shareholderEventData(u: StoredUser): S['ShareholderEventData'] {
  return { userId: u.id, isShareholder: true, externalUserIds: u.externalUsers.map((e) => e.id) };
}
