// What the store keeps per verification, user and webhook: the documented
// fields plus the sandbox's own bookkeeping, as plain JSON (the --state file).
import type { components } from '../../../generated/types/partner.js';

type S = components['schemas'];
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * An object as the sandbox sends it: every field present and none `null`, where the service may leave one out or
 * send it `null` (P8). Never kinder than the service: the whole object is one of the shapes it may send.
 */
type Whole<T> = { [K in keyof T]-?: Exclude<T[K], null | undefined> };
type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];
/** The fields that echo the partner's optional create input (P8): the sandbox leaves out what was not sent, and never sends `null`. */
type Echoed = Exclude<OptionalKeys<S['VerificationCreate']> & keyof S['Verification'], 'phoneNumbers' | 'requirements'>;
type VerificationData = Omit<S['Verification'], Echoed | 'phoneNumbers' | 'requirements'> & {
  [K in Echoed]?: Exclude<S['Verification'][K], null>;
} & Whole<Pick<S['Verification'], 'phoneNumbers' | 'requirements'>>;

export type VerificationStatus = S['VerificationStatus'];
export type DocumentData = Whole<NonNullable<S['CollectedDocument']['result']>> & { type: S['DocumentType'] };
export type PersonName = { firstName: string; lastName: string };

export interface StoredVerification {
  /** The sandbox always answers `phoneNumbers` and `requirements` (empty lists when none were sent), which the service may leave out (P8). */
  data: Mutable<VerificationData>;
  token: string;
  activities: S['UserActivity'][];
  /** Device ids in order of first use. */
  devices: string[];
  /** `fingerprintId` is the device's: the first one given to it (operation 17). */
  fingerprintEvents: { deviceId: string; fingerprintId: string; id: string; data: Record<string, unknown> }[];
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
    /** Who the face model took the person for at scan time: whom completion joins if no phone number matches, else a new user's id. */
    faceUserId: string;
    /** Passed, or accepted by the reviewer: the document counts as verified. */
    accepted: boolean;
  };
}

export type StoredUser = Omit<S['UserDetails'], 'phoneNumbers' | 'externalUsers' | 'names'> & {
  phoneNumbers: Whole<S['UserPhoneNumber']>[];
  externalUsers: Whole<S['ExternalUser']>[];
  names: Whole<S['UserName']>[];
  shares: S['Shares'];
  /** Completed verifications whose data the user holds, oldest first. */
  verificationIds: string[];
};

/** A webhook record: the payload is the event's JSON text, as sent; `pending` until delivered with success. */
export type WebhookEntry = { eventId: string; text: string; pending: boolean } & (
  | { kind: 'verification'; record: Omit<S['VerificationWebhookRecord'], 'payload'> }
  | { kind: 'user'; record: Omit<S['UserWebhookRecord'], 'payload'> }
);
