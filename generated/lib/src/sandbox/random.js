// The sandbox's one source of randomness: ids, tokens, keys and fake data.
// A counter-mode SHA-256 generator seeded from the OS, so that with --state
// a replayed change draws exactly the values it drew the first time (the
// seed and the counter are part of the saved state).
import { createHash, randomBytes } from 'node:crypto';
export class SandboxRandom {
    seed;
    counter;
    constructor(state) {
        this.seed = state ? Buffer.from(state.seed, 'base64') : randomBytes(32);
        this.counter = state?.counter ?? 0;
    }
    /** Continues from a saved point of the sequence. */
    restore(state) {
        this.seed = Buffer.from(state.seed, 'base64');
        this.counter = state.counter;
    }
    state() {
        return { seed: this.seed.toString('base64'), counter: this.counter };
    }
    bytes(n) {
        const blocks = [];
        for (let got = 0; got < n; got += 32) {
            const counter = Buffer.alloc(8);
            counter.writeBigUInt64BE(BigInt(this.counter++));
            blocks.push(createHash('sha256').update(this.seed).update(counter).digest());
        }
        return Buffer.concat(blocks).subarray(0, n);
    }
    hex(n) {
        return this.bytes(n).toString('hex');
    }
    /** A version 4 UUID. */
    uuid() {
        const b = this.bytes(16);
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        const h = b.toString('hex');
        return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
}
