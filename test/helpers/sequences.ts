// The documented event sequences of the partner document, as the tests
// expect them (restated from the source, not read from the spec).

/** New user: created; link opened; completion creates a user; name entered; phone verified. */
export const NEW_USER_SEQUENCE = [
  'verification.created',
  'verification.updated',
  'verification.updated',
  'user.created',
  'user.updated',
  'user.updated',
] as const;
