import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';

describe('canonicalJson with own __proto__ keys', () => {
  it('writes a chain of them deeper than the native depth, counting each level', () => {
    const depth = 20_000;
    let value: Record<string, unknown> = { leaf: 1 };
    for (let level = 0; level < depth; level++) {
      const parent: Record<string, unknown> = {};
      Object.defineProperty(parent, '__proto__', {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      value = parent;
    }
    expect(canonicalJson(value)).toBe(`${'{"__proto__":'.repeat(depth)}{"leaf":1}${'}'.repeat(depth)}`);
  });
});
