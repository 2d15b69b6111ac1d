import type { components } from '../generated/types/partner.js';
type Verification = components['schemas']['Verification'];
type Status = Verification['status'];
type Base = Omit<Verification, 'status' | 'userId' | 'previousUserId'>;
/** A completed verification: it carries the id of the user it created or merged into. */
export type CompletedVerification = Base & {
    status: 'completed';
    userId: string;
    previousUserId: null;
};
/**
 * A reverted verification. `previousUserId` names the user the data was
 * detached from; it is `null` when the revert came from `waitingForUserInput`,
 * before any user existed.
 */
export type RevertedVerification = Base & {
    status: 'reverted';
    userId: null;
    previousUserId: string | null;
};
/** A verification in any other status: no user id of either kind. */
export type PendingVerification = Base & {
    status: Exclude<Status, 'completed' | 'reverted'>;
    userId: null;
    previousUserId: null;
};
/** A verification discriminated on `status`, so `userId` is a string after `status === 'completed'`. */
export type NarrowedVerification = CompletedVerification | RevertedVerification | PendingVerification;
/**
 * Returns the verification typed as `NarrowedVerification`, after checking
 * that its user ids agree with its status (a `completed` one has a string
 * `userId`); returns `undefined` when they do not, rather than lying about
 * the type.
 *
 * ```ts
 * const v = narrowVerification(data);
 * if (v?.status === 'completed') linkAccount(v.userId); // string
 * ```
 */
export declare function narrowVerification(verification: Verification): NarrowedVerification | undefined;
export {};
