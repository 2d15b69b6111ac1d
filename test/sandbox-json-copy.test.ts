// Answers are deep copies of the store made by jsonCopy: a copy is equal,
// shares nothing, and keeps a JSON key `__proto__` as data.
import { describe, expect, it } from 'vitest';
import { jsonCopy } from '../src/sandbox/common/json-copy.js';

describe('jsonCopy', () => {
  it('copies JSON deeply without sharing, as structuredClone does', () => {
    const value = { a: [1, 'x', null, { b: true, c: [{ d: 2.5 }] }], e: {}, f: '' };
    const copy = jsonCopy(value);
    expect(copy).toEqual(structuredClone(value));
    copy.a.push(9);
    (copy.a[3] as { c: { d: number }[] }).c[0].d = 0;
    expect(value.a).toHaveLength(4);
    expect((value.a[3] as { c: { d: number }[] }).c[0].d).toBe(2.5);
  });

  it('keeps a parsed `__proto__` key as an own property, not a prototype', () => {
    const parsed = JSON.parse('{"metadata":{"__proto__":{"polluted":true}}}');
    const copy = jsonCopy(parsed);
    expect(Object.getPrototypeOf(copy.metadata)).toBe(Object.prototype);
    expect(Object.keys(copy.metadata)).toEqual(['__proto__']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(parsed));
  });
});
