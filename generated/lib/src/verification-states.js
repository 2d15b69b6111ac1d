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
export function narrowVerification(verification) {
    const { status, userId, previousUserId } = verification;
    if (status === 'completed')
        return typeof userId === 'string' && previousUserId == null ? verification : undefined;
    if (status === 'reverted')
        return userId == null ? verification : undefined;
    return userId == null && previousUserId == null ? verification : undefined;
}
