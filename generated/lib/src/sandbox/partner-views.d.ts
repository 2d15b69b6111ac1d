import type { components } from '../../generated/types/partner.js';
import type { StoredUser, StoredVerification } from './partner-records.js';
type S = components['schemas'];
export declare function verificationView(v: StoredVerification): S['Verification'];
/** The create answer: no `updatedAt` (DECISIONS P10). */
export declare function createdVerificationView(v: StoredVerification): S['CreatedVerification'];
/** `data` of verification webhooks: the documented field list; `userId`/`previousUserId` only in their status. */
export declare function verificationEventData(v: StoredVerification): S['VerificationEventData'];
export declare function userListItem(u: StoredUser): S['User'];
export declare function userDetailsView(u: StoredUser): S['UserDetails'];
export declare function userEventData(u: StoredUser): S['UserEventData'];
export declare function shareholderEventData(u: StoredUser): S['ShareholderEventData'];
export {};
