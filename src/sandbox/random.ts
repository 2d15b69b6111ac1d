// The sandbox's one source of randomness: ids, tokens, keys and fake data.
// A counter-mode SHA-256 generator seeded from the OS, so that with --state
// a replayed change draws exactly the values it drew the first time (the
// seed and the counter are part of the saved state).
import { hash, randomBytes } from 'node:crypto';

export interface RandomState {
  seed: string;
  counter: number;
}

export class SandboxRandom {
  private seed!: Buffer;
  private counter!: number;
  /** seed || counter (64-bit big-endian), hashed in one call per block. */
  private block = Buffer.alloc(40);

  constructor(state?: RandomState) {
    this.restore(state ?? { seed: randomBytes(32).toString('base64'), counter: 0 });
  }

  /** Continues from a saved point of the sequence. */
  restore(state: RandomState): void {
    this.seed = Buffer.from(state.seed, 'base64');
    this.counter = state.counter;
    this.block = Buffer.alloc(this.seed.length + 8);
    this.seed.copy(this.block);
  }

  state(): RandomState {
    return { seed: this.seed.toString('base64'), counter: this.counter };
  }

  bytes(n: number): Buffer {
    const blocks: Buffer[] = [];
    const at = this.seed.length;
    for (let got = 0; got < n; got += 32) {
      // The counter as a 64-bit big-endian number: the same bytes as before this was made cheaper, so saved states replay alike.
      this.block.writeUInt32BE(Math.floor(this.counter / 2 ** 32), at);
      this.block.writeUInt32BE(this.counter >>> 0, at + 4);
      this.counter++;
      blocks.push(hash('sha256', this.block, 'buffer'));
    }
    return blocks.length === 1 ? blocks[0].subarray(0, n) : Buffer.concat(blocks).subarray(0, n);
  }

  hex(n: number): string {
    return this.bytes(n).toString('hex');
  }

  /** A version 4 UUID. */
  uuid(): string {
    const b = this.bytes(16);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
}
