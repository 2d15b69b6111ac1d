import type { components } from '../generated/types/partner.js';

// The partner document ties `userId` to `completed` and `previousUserId` to
// `reverted` with an if/then, which no TypeScript generator turns into types:
// these types restore the rule, and `narrowVerification` checks it at run time.

type Verification = components['schemas']['Verification'];
type Status = Verification['status'];
type Base = Omit<Verification, 'status' | 'userId' | 'previousUserId'>;

/** A completed verification: it carries the id of the user it created or merged into. */
export type CompletedVerification = Base & { status: 'completed'; userId: string; previousUserId: null };

/**
 * A reverted verification. `previousUserId` names the user the data was
 * detached from; it is `null` when the revert came from `waitingForUserInput`,
 * before any user existed.
 */
export type RevertedVerification = Base & { status: 'reverted'; userId: null; previousUserId: string | null };

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
export function narrowVerification(verification: Verification): NarrowedVerification | undefined {
  const { status, userId, previousUserId } = verification;
  if (status === 'completed')
    return typeof userId === 'string' && previousUserId == null ? (verification as CompletedVerification) : undefined;
  if (status === 'reverted') return userId == null ? (verification as RevertedVerification) : undefined;
  return userId == null && previousUserId == null ? (verification as PendingVerification) : undefined;
}
