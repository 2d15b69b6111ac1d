// The sandbox's random sequence is part of every --state file (DECISIONS
// S21): a replay must draw what the first run drew, so the generator is
// pinned to its definition, SHA-256 of seed || 64-bit big-endian counter.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SandboxRandom } from '../src/sandbox/random.js';

function block(seed: Buffer, counter: number): Buffer {
  const c = Buffer.alloc(8);
  c.writeBigUInt64BE(BigInt(counter));
  return createHash('sha256').update(seed).update(c).digest();
}

describe('sandbox random sequence', () => {
  it('is SHA-256 in counter mode, past 2^32 and across blocks, and continues from a restored state', () => {
    const seed = Buffer.alloc(32, 7);
    const start = 2 ** 32 + 1;
    const random = new SandboxRandom({ seed: seed.toString('base64'), counter: start });
    expect(random.hex(40)).toBe(Buffer.concat([block(seed, start), block(seed, start + 1)]).subarray(0, 40).toString('hex'));
    const uuid = random.uuid();
    const b = block(seed, start + 2).subarray(0, 16);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    expect(uuid.replace(/-/g, '')).toBe(b.toString('hex'));
    expect(random.state()).toEqual({ seed: seed.toString('base64'), counter: start + 3 });

    const other = new SandboxRandom();
    other.restore(random.state());
    expect(other.hex(8)).toBe(block(seed, start + 3).subarray(0, 8).toString('hex'));
  });
});
