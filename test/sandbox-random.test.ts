// The sandbox's random sequence is part of every --state file (DECISIONS
// S21, S24): a replay must draw what the first run drew, so each generator
// is pinned to its definition. New state draws the AES-256-CTR keystream
// under the seed; state saved before that (no `generator`) keeps SHA-256 of
// seed || 64-bit big-endian counter.
import { createCipheriv, createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SandboxRandom } from '../src/sandbox/common/random.js';

function block(seed: Buffer, counter: number): Buffer {
  const c = Buffer.alloc(8);
  c.writeBigUInt64BE(BigInt(counter));
  return createHash('sha256').update(seed).update(c).digest();
}

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
  it('new state: the AES-256-CTR keystream, across cipher calls, and continues from a restored state mid-block', () => {
    const seed = Buffer.alloc(32, 9);
    const random = new SandboxRandom({ seed: seed.toString('base64'), counter: 0, generator: 'aes-256-ctr' });
    expect(random.hex(40)).toBe(keystream(seed, 0, 40).toString('hex'));
    expect(random.uuid().replace(/-/g, '')).toBe(asUuid(keystream(seed, 40, 16)));
    // Past the first 4 KiB made at once, and a draw that straddles it.
    random.hex(4030);
    expect(random.hex(20)).toBe(keystream(seed, 4086, 20).toString('hex'));
    expect(random.state()).toEqual({ seed: seed.toString('base64'), counter: 4106, generator: 'aes-256-ctr' });

    const other = new SandboxRandom();
    other.restore(random.state());
    expect(other.hex(8)).toBe(keystream(seed, 4106, 8).toString('hex'));
    expect(random.hex(8)).toBe(keystream(seed, 4106, 8).toString('hex'));
  });

  it('a new generator draws the keystream and differs from run to run', () => {
    const a = new SandboxRandom();
    const b = new SandboxRandom();
    expect(a.state().generator).toBe('aes-256-ctr');
    const state = a.state();
    expect(a.hex(16)).toBe(keystream(Buffer.from(state.seed, 'base64'), 0, 16).toString('hex'));
    expect(a.hex(16)).not.toBe(b.hex(16));
  });

  it('state saved before the keystream: SHA-256 in counter mode, past 2^32 and across blocks, and continues from a restored state', () => {
    const seed = Buffer.alloc(32, 7);
    const start = 2 ** 32 + 1;
    const random = new SandboxRandom({ seed: seed.toString('base64'), counter: start });
    expect(random.hex(40)).toBe(Buffer.concat([block(seed, start), block(seed, start + 1)]).subarray(0, 40).toString('hex'));
    const uuid = random.uuid();
    expect(uuid.replace(/-/g, '')).toBe(asUuid(block(seed, start + 2).subarray(0, 16)));
    expect(random.state()).toEqual({ seed: seed.toString('base64'), counter: start + 3 });

    const other = new SandboxRandom();
    other.restore(random.state());
    expect(other.hex(8)).toBe(block(seed, start + 3).subarray(0, 8).toString('hex'));
  });
});
