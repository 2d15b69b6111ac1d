import { jsonCopy } from './json-copy.js';
const copy = jsonCopy;
export function verificationView(v) {
    return copy(v.data);
}
/** The create answer: no `updatedAt` (DECISIONS P10). */
export function createdVerificationView(v) {
    const { updatedAt: _updatedAt, status: _status, userId: _u, previousUserId: _p, collectedRequirements, ...rest } = copy(v.data);
    return {
        ...rest,
        status: 'created',
        userId: null,
        previousUserId: null,
        collectedRequirements: collectedRequirements.map((c) => c.type === 'phoneNumbers' ? { type: c.type, result: null } : { type: c.type, result: null, verified: c.verified }),
    };
}
/** `data` of verification webhooks: the documented field list; `userId`/`previousUserId` only in their status. */
export function verificationEventData(v) {
    const d = copy(v.data);
    const data = {
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
    if (d.errorRedirectUrl !== undefined)
        data.errorRedirectUrl = d.errorRedirectUrl;
    if (d.phoneNumber !== undefined)
        data.phoneNumber = d.phoneNumber;
    if (d.isPhoneNumberVerified !== undefined)
        data.isPhoneNumberVerified = d.isPhoneNumberVerified;
    if (d.firstName !== undefined)
        data.firstName = d.firstName;
    if (d.lastName !== undefined)
        data.lastName = d.lastName;
    if (d.requireFirstAndLastName !== undefined)
        data.requireFirstAndLastName = d.requireFirstAndLastName;
    if (d.status === 'completed')
        data.userId = d.userId;
    if (d.status === 'reverted')
        data.previousUserId = d.previousUserId;
    if (d.reason !== undefined)
        data.reason = d.reason;
    if (d.metadata !== undefined)
        data.metadata = d.metadata;
    return data;
}
export function userListItem(u) {
    return copy({
        id: u.id,
        phoneNumbers: u.phoneNumbers,
        externalUsers: u.externalUsers,
        createdAt: u.createdAt,
        updatedAt: u.updatedAt,
    });
}
const personal = (u) => ({
    ...(u.firstName !== undefined && { firstName: u.firstName }),
    ...(u.lastName !== undefined && { lastName: u.lastName }),
    ...(u.dateOfBirth !== undefined && { dateOfBirth: u.dateOfBirth }),
});
export function userDetailsView(u) {
    return copy({
        ...userListItem(u),
        ...personal(u),
        estimatedAge: u.estimatedAge,
        image: u.image,
        names: u.names,
        documents: u.documents,
    });
}
export function userEventData(u) {
    return copy({
        userId: u.id,
        ...personal(u),
        createdAt: u.createdAt,
        estimatedAge: u.estimatedAge,
        phoneNumbers: u.phoneNumbers,
        names: u.names,
        externalUsers: u.externalUsers,
    });
}
export function shareholderEventData(u) {
    return { userId: u.id, isShareholder: true, externalUserIds: u.externalUsers.map((e) => e.id) };
}
