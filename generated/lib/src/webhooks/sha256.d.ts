/** Bytes as lowercase hex. */
export declare const toHex: (bytes: Uint8Array) => string;
/** HMAC-SHA256 of `message` (text is taken as UTF-8) keyed with `key`. */
export declare function hmacSha256(key: string, message: string | Uint8Array): Uint8Array;
