// Key rotation (--rotate-key): which key of an answer is the new one, the
// order the key-rotation workflow reads keys in, and what the partner is told
// once the previous key no longer works.

/** The key an answer with `authKeys` marks `active: true`, in whatever position (P31). */
export function activeKey(received: unknown): string | undefined {
  const keys = (received as { authKeys?: unknown } | undefined)?.authKeys;
  if (!Array.isArray(keys)) return undefined;
  return keys.find((k) => k?.active === true && typeof k.key === 'string')?.key;
}

/** Where the new key is, once the rotation has answered (stderr, the report, an error after it). */
export function rotationNotice(keyFile: string): string {
  return `the auth key was rotated: the new key is in ${keyFile}; the previous key no longer works (POST /auth-keys makes it invalid at once), so use the new one from now on`;
}

/** Auth keys ordered by content: the active key first, then the newest first (the local sandbox's order). */
export function keysInReadingOrder(received: unknown): unknown {
  const keys = (received as { authKeys?: unknown } | undefined)?.authKeys;
  if (!Array.isArray(keys)) return received;
  const created = (k: { createdAt?: unknown }) => (typeof k?.createdAt === 'string' ? Date.parse(k.createdAt) || 0 : 0);
  const ordered = [...keys].sort(
    (a, b) => Number(b?.active === true) - Number(a?.active === true) || created(b) - created(a),
  );
  return { ...(received as object), authKeys: ordered };
}
