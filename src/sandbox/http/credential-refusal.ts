// Why a request lacks the credential its route asks. The 401 keeps the
// documented body; the mistake is named in X-Sandbox-Reason (S33).
export const REASON_HEADER = 'X-Sandbox-Reason';

export interface KnownCredentials {
  /** The partner's keys: the active one, one rotated away, or none of them (undefined). */
  authKeyState(key: string): 'active' | 'retired' | undefined;
  accessToken: string;
}

/** Why a request to a route secured by `security` gets a 401, or undefined when its credential is in force; `header` reads its headers. */
export function credentialRefusal(
  security: 'authKey' | 'bearer' | 'none',
  header: (name: string) => string | undefined,
  known: KnownCredentials,
): string | undefined {
  const key = header('x-auth-key');
  const authorization = header('authorization');
  if (security === 'authKey') {
    if (key === undefined) {
      return authorization !== undefined && /^bearer\s+/i.test(authorization)
        ? 'a bearer token was sent to the partner API, which takes the auth key in the X-Auth-Key header'
        : 'no X-Auth-Key header: the partner API takes the auth key in X-Auth-Key';
    }
    const state = known.authKeyState(key);
    if (state === 'active') return undefined;
    if (state === 'retired')
      return 'this X-Auth-Key was rotated away: POST /auth-keys made it invalid; send the newest key';
    if (key === known.accessToken) return 'X-Auth-Key holds the v2 access token; the partner API takes the auth key';
    return 'unknown X-Auth-Key: no key of this sandbox has this value (its start-up banner prints the key in force)';
  }
  if (security !== 'bearer') return undefined;
  if (authorization === undefined) {
    return key !== undefined
      ? 'X-Auth-Key was sent to the v2 API, which takes Authorization: Bearer <access token>'
      : 'no Authorization header: the v2 API takes Authorization: Bearer <access token>';
  }
  if (authorization === `Bearer ${known.accessToken}`) return undefined;
  if (!authorization.startsWith('Bearer '))
    return 'Authorization is not "Bearer <access token>" (the scheme is Bearer, then one space)';
  if (known.authKeyState(authorization.slice('Bearer '.length)) !== undefined)
    return 'the bearer token is a partner auth key; the v2 API takes the v2 access token';
  return 'unknown bearer token: not the access token of this sandbox (its start-up banner prints it)';
}
