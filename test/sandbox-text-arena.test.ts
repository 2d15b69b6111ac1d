// Webhook payloads are kept as UTF-8 outside the JS heap (DECISIONS S26):
// every text comes back exactly, across buffer boundaries and with
// characters of every UTF-8 length.
import { describe, expect, it } from 'vitest';
import { TextArena } from '../src/sandbox/partner/text-arena.js';

describe('text arena', () => {
  it('gives back every text exactly, across its 1 MiB buffers', () => {
    const arena = new TextArena();
    const texts = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({ eventId: `e-${i}`, name: i % 3 === 0 ? 'Zoë Ångström' : i % 3 === 1 ? '李小龍 🐉' : 'Lena Bauer', pad: 'x'.repeat((i * 37) % 1500) }),
    );
    const refs = texts.map((t) => arena.put(t));
    expect(new Set(refs.map((r) => r.chunk)).size).toBeGreaterThan(1);
    refs.forEach((ref, i) => expect(arena.get(ref)).toBe(texts[i]));
    expect(refs.every((r, i) => r.bytes === Buffer.byteLength(texts[i]))).toBe(true);
  });

  it('keeps a text larger than a buffer (a body near the 1 MiB limit) in one of its own', () => {
    const arena = new TextArena();
    const small = arena.put('{"a":1}');
    const large = `{"phoneNumbers":${JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ phoneNumber: `+4915${String(i).padStart(9, '0')}` })))}}`;
    const big = arena.put(large);
    const after = arena.put('{"b":"ü"}');
    expect(arena.get(small)).toBe('{"a":1}');
    expect(arena.get(big)).toBe(large);
    expect(big.bytes).toBeGreaterThan(1 << 20);
    expect(arena.get(after)).toBe('{"b":"ü"}');
    expect(after.chunk).toBeGreaterThan(big.chunk);
  });
});
