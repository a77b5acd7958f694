import { describe, expect, it } from 'vitest';
import { randomHex } from './random-id.ts';

describe('randomHex', () => {
  it('gives hex of the asked length, different every time, across pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const id = randomHex(12);
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(2000);
    expect(randomHex(16)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('refuses more bytes than its pool holds', () => {
    expect(() => randomHex(5000)).toThrow(RangeError);
  });
});
