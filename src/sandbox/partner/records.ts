// What the partner state keeps per verification and per user: the documented
// fields plus the sandbox's own bookkeeping (session token, devices, the data
// the end user entered or scanned, which completed verifications feed a user).
import type { components } from '../../../generated/types/partner.js';

type S = components['schemas'];
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export type VerificationStatus = S['VerificationStatus'];
export type DocumentData = NonNullable<S['CollectedDocument']['result']> & { type: S['DocumentType']; issuingAuthority: string; placeOfIssue: string };
export type PersonName = { firstName: string; lastName: string };

export interface StoredVerification {
  /** Creation order: the newest-first lists page by it. */
  seq: number;
  /**
   * The sandbox always answers `phoneNumbers` and `requirements` (empty lists
   * when none were sent); the service may leave them out (DECISIONS P8).
   */
  data: Mutable<S['Verification'] & Required<Pick<S['Verification'], 'phoneNumbers' | 'requirements'>>>;
  token: string;
  activities: S['UserActivity'][];
  /** Device ids in order of first use. */
  devices: string[];
  fingerprintEvents: { deviceId: string; id: string; data: Record<string, unknown> }[];
  entered: { name?: PersonName; dateOfBirth?: string };
  /** Numbers the end user verified in the session: the `phoneNumbers` requirement's result. */
  verifiedPhones: string[];
  /** `author` of the revert; the Verification has no field for it. */
  revertedBy?: string;
  scan?: {
    document: DocumentData;
    documentId: string;
    estimatedAge: S['EstimatedAge'];
    image: string;
    /** Who the face model took the person for at scan time; see `revert`. */
    faceUserId: string;
    /** Passed, or accepted by the reviewer: the document counts as verified. */
    accepted: boolean;
  };
}

export interface StoredUser {
  /** Creation order: the newest-first lists page by it. */
  seq: number;
  id: string;
  createdAt: string;
  updatedAt: string;
  phoneNumbers: S['UserPhoneNumber'][];
  externalUsers: S['ExternalUser'][];
  firstName?: string;
  lastName?: string;
  dateOfBirth?: string | null;
  estimatedAge: S['EstimatedAge'];
  image: string;
  names: S['UserName'][];
  documents: S['UserDocument'][];
  shares: S['Shares'];
  /** Completed verifications whose data the user holds, oldest first. */
  verificationIds: string[];
}

/**
 * A new verification's lists and `entered` start as these shared, frozen
 * empties (most verifications never get any: one object fewer each for the
 * garbage collector to keep); `own` gives a record its own copy before the
 * first change, and a change made without it throws instead of leaking.
 */
export const NOTHING: never[] = Object.freeze([]) as never[];
export const NOTHING_ENTERED: StoredVerification['entered'] = Object.freeze({});

/**
 * One frozen object per key, shared by every record that holds it: for
 * values stored and never changed in place (a requirement, a requirement
 * with nothing collected yet), so each record does not keep its own.
 */
const SHARED = new Map<string, object>();
export function shared<T extends object>(key: string, make: () => T): T {
  let value = SHARED.get(key) as T | undefined;
  if (!value) SHARED.set(key, (value = Object.freeze(make())));
  return value;
}

/** The value itself, or a copy of it the record can change when it is one of the shared empties. */
export function own<T extends object>(value: T): T {
  return Object.isFrozen(value) ? ((Array.isArray(value) ? [...value] : { ...value }) as T) : value;
}
