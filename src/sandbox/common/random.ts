// The sandbox's one source of randomness: ids, tokens, keys and fake data.
// A deterministic generator seeded from the OS, so that with --state a
// replayed change draws exactly the values it drew the first time (the seed
// and the position are part of the saved state). The values are the
// AES-256-CTR keystream under the seed (DECISIONS S24): one cipher call
// yields 256 UUIDs.
import { createCipheriv, randomBytes } from 'node:crypto';

export interface RandomState {
  seed: string;
  /** Keystream bytes drawn so far. */
  counter: number;
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const DASH = 0x2d;
const UUID_TEXT = Buffer.alloc(36);

/** Keystream bytes made per cipher call. */
const POOL = 4096;
const ZEROS = Buffer.alloc(POOL);

export class SandboxRandom {
  private seed!: Buffer;
  private counter!: number;
  /** Keystream from byte `poolAt` (a multiple of 16). */
  private pool: Buffer = Buffer.alloc(0);
  private poolAt = 0;

  constructor(state?: RandomState) {
    this.restore(state ?? { seed: randomBytes(32).toString('base64'), counter: 0 });
  }

  /** Continues from a saved point of the sequence. */
  restore(state: RandomState): void {
    this.seed = Buffer.from(state.seed, 'base64');
    this.counter = state.counter;
    this.pool = Buffer.alloc(0);
    this.poolAt = 0;
  }

  state(): RandomState {
    return { seed: this.seed.toString('base64'), counter: this.counter };
  }

  bytes(n: number): Buffer {
    return this.keystream(n);
  }

  hex(n: number): string {
    return this.bytes(n).toString('hex');
  }

  /**
   * A version 4 UUID, written as ASCII into a scratch buffer: one flat
   * string, where joining slices would keep a tree of string pieces alive
   * for every stored id.
   */
  uuid(): string {
    // The 16 bytes read in place (no Buffer made for them), with the version and variant bits set.
    const [b, at] = this.reserve(16);
    let o = 0;
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) UUID_TEXT[o++] = DASH;
      let byte = b[at + i];
      if (i === 6) byte = (byte & 0x0f) | 0x40;
      else if (i === 8) byte = (byte & 0x3f) | 0x80;
      UUID_TEXT[o++] = HEX_DIGITS[byte >> 4];
      UUID_TEXT[o++] = HEX_DIGITS[byte & 15];
    }
    return UUID_TEXT.toString('latin1', 0, 36);
  }

  /** Bytes [counter, counter + n) of the keystream: a view of the pool, which never hands out a byte twice, so the caller may change it. */
  private keystream(n: number): Buffer {
    const [pool, at] = this.reserve(n);
    return pool.subarray(at, at + n);
  }

  /** Takes the next `n` keystream bytes: the pool that holds them and where they start in it. */
  private reserve(n: number): [Buffer, number] {
    const from = this.counter;
    if (from < this.poolAt || from + n > this.poolAt + this.pool.length) {
      this.poolAt = from - (from % 16);
      // The IV is the 128-bit big-endian number of the first block; CTR counts up from it.
      const iv = Buffer.alloc(16);
      const blockNo = this.poolAt / 16;
      iv.writeUInt32BE(Math.floor(blockNo / 2 ** 32), 8);
      iv.writeUInt32BE(blockNo >>> 0, 12);
      const cipher = createCipheriv('aes-256-ctr', this.seed, iv);
      const length = Math.max(POOL, from - this.poolAt + n + 15) & ~15;
      this.pool = length === POOL ? cipher.update(ZEROS) : cipher.update(Buffer.alloc(length));
    }
    this.counter = from + n;
    return [this.pool, from - this.poolAt];
  }
}
