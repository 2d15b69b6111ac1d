// HMAC-SHA256 (FIPS 180-4, RFC 2104) in plain JavaScript, for the one place
// no native HMAC can serve: the synchronous verifyWebhookSignature on runtimes
// without node:crypto (workerd, browsers). Written for size, not reuse: the
// audited libraries weigh 5 to 8 KB minified, more than a whole verify-only
// receiver may (openapi/DECISIONS.md P50). Tested against node:crypto and
// RFC 4231 on every runtime the package supports.
// Round constants and initial hash: the first 32 bits of the fractional parts
// of the cube roots of the first 64 primes, and of the square roots of the
// first 8 (FIPS 180-4 §4.2.2, §5.3.3). Computed rather than listed: each lies
// at least 0.02 from an integer once scaled by 2^32, so no engine's rounding
// can change it.
/** The first 32 bits of the fractional part of `root` of each of the first `count` primes. */
function fractions(root, count) {
    const primes = [];
    for (let n = 2; primes.length < count; n++)
        if (primes.every((p) => n % p))
            primes.push(n);
    // An Int32Array keeps the truncated value modulo 2^32: the 32 bits wanted.
    return Int32Array.from(primes, (p) => (root(p) % 1) * 2 ** 32);
}
const K = /* @__PURE__ */ fractions(Math.cbrt, 64);
const IV = /* @__PURE__ */ fractions(Math.sqrt, 8);
const W = /* @__PURE__ */ new Int32Array(64);
const rotr = (x, n) => (x >>> n) | (x << (32 - n));
/** Σ and σ of FIPS 180-4 §4.1.2: three rotations, or two and a shift (`shift` 1). */
const sigma = (x, a, b, c, shift) => rotr(x, a) ^ rotr(x, b) ^ (shift ? x >>> c : rotr(x, c));
/** One 64-byte block of `data` at `at` into the state `h`. */
function compress(h, data, at) {
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
        W[i] = i < 16 ? data.getInt32(at + i * 4) : sigma(W[i - 15], 7, 18, 3, 1) + sigma(W[i - 2], 17, 19, 10, 1) + W[i - 7] + W[i - 16];
        const t1 = (k + sigma(e, 6, 11, 25) + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
        const t2 = (sigma(a, 2, 13, 22) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        k = g;
        g = f;
        f = e;
        e = (d + t1) | 0;
        d = c;
        c = b;
        b = a;
        a = (t1 + t2) | 0;
    }
    [a, b, c, d, e, f, g, k].forEach((x, i) => (h[i] += x));
}
/** SHA-256 of `head` followed by `tail`. */
function sha256(head, tail) {
    const length = head.length + tail.length;
    // Both, 0x80, zeros, and the length in bits: a whole number of blocks.
    const total = length + 72 - ((length + 72) % 64);
    const padded = new Uint8Array(total);
    const data = new DataView(padded.buffer);
    padded.set(head);
    padded.set(tail, head.length);
    padded[length] = 0x80;
    data.setUint32(total - 8, length / 2 ** 29);
    data.setUint32(total - 4, length * 8);
    const h = IV.slice();
    for (let at = 0; at < total; at += 64)
        compress(h, data, at);
    h.forEach((word, i) => data.setInt32(i * 4, word));
    return padded.subarray(0, 32);
}
/** Bytes as lowercase hex. */
export const toHex = (bytes) => Array.from(bytes, (byte) => (byte | 256).toString(16).slice(1)).join('');
const utf8 = /* @__PURE__ */ new TextEncoder();
/** HMAC-SHA256 of `message` (text is taken as UTF-8) keyed with `key`. */
export function hmacSha256(key, message) {
    const bytes = utf8.encode(key);
    const pad = new Uint8Array(64);
    pad.set(bytes.length > 64 ? sha256(bytes, pad.subarray(64)) : bytes);
    return sha256(pad.map((x) => x ^ 0x5c), sha256(pad.map((x) => x ^ 0x36), typeof message === 'string' ? utf8.encode(message) : message));
}
