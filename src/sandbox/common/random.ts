// Ids, tokens and keys from the platform's Web Crypto (`crypto.randomUUID`,
// `crypto.getRandomValues`), which every runtime the sandbox runs in has:
// Node 20 and later, Bun, Deno, workerd and browsers.

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
