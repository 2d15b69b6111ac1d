// The sandbox's random sequence is part of every --state file (DECISIONS
// S21, S24): a replay must draw what the first run drew, so the generator is
// pinned to its definition, the AES-256-CTR keystream under the seed.
import { createCipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SandboxRandom } from '../src/sandbox/common/random.js';

/** Keystream bytes [from, from + n) of AES-256-CTR under `seed`, counting blocks from 0. */
function keystream(seed: Buffer, from: number, n: number): Buffer {
  return createCipheriv('aes-256-ctr', seed, Buffer.alloc(16)).update(Buffer.alloc(from + n)).subarray(from);
}

const asUuid = (bytes: Buffer) => {
  const b = Buffer.from(bytes);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  return b.toString('hex');
};

describe('sandbox random sequence', () => {
  it('is the AES-256-CTR keystream, across cipher calls, and continues from a restored state mid-block', () => {
    const seed = Buffer.alloc(32, 9);
    const random = new SandboxRandom({ seed: seed.toString('base64'), counter: 0 });
    expect(random.hex(40)).toBe(keystream(seed, 0, 40).toString('hex'));
    expect(random.uuid().replace(/-/g, '')).toBe(asUuid(keystream(seed, 40, 16)));
    // Past the first 4 KiB made at once, and a draw that straddles it.
    random.hex(4030);
    expect(random.hex(20)).toBe(keystream(seed, 4086, 20).toString('hex'));
    expect(random.state()).toEqual({ seed: seed.toString('base64'), counter: 4106 });

    const other = new SandboxRandom();
    other.restore(random.state());
    expect(other.hex(8)).toBe(keystream(seed, 4106, 8).toString('hex'));
    expect(random.hex(8)).toBe(keystream(seed, 4106, 8).toString('hex'));
  });

  it('a new generator draws the keystream of its own seed and differs from run to run', () => {
    const a = new SandboxRandom();
    const b = new SandboxRandom();
    const state = a.state();
    expect(state.counter).toBe(0);
    expect(a.hex(16)).toBe(keystream(Buffer.from(state.seed, 'base64'), 0, 16).toString('hex'));
    expect(a.hex(16)).not.toBe(b.hex(16));
  });
});
