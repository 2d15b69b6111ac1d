// Ids, tokens and keys from Web Crypto, which every runtime the sandbox runs in has.

export const randomUUID = (): string => crypto.randomUUID();

const randomBytes = (length: number) => crypto.getRandomValues(new Uint8Array(length));

export const randomHex = (length: number) =>
  Array.from(randomBytes(length), (b) => b.toString(16).padStart(2, '0')).join('');

/** Bytes as base64 (`url`: the URL-safe alphabet without padding). */
export function base64(bytes: Uint8Array, url = false): string {
  const text = btoa(String.fromCharCode(...bytes));
  return url ? text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : text;
}

export const randomBase64url = (length: number) => base64(randomBytes(length), true);
