import { describe, expect, it } from 'vitest';
import { deepCanonicalJson } from './_deep-canonical-json';

// The writer canonicalJson hands values deeper than 1,000 levels to, tested here on small
// values: it must write exactly what JSON.stringify writes of the sorted value.
describe('deepCanonicalJson', () => {
  it('skips undefined, function and symbol members, as JSON.stringify does', () => {
    const value = { c: undefined, b: () => 1, a: Symbol('s'), d: 1, e: null };
    expect(deepCanonicalJson(value)).toBe('{"d":1,"e":null}');
    expect(deepCanonicalJson({ only: undefined })).toBe('{}');
  });

  it('writes null for an array item that has no JSON text, holes included', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case under test.
    const items = [undefined, () => 1, Symbol('s'), , 'x'];
    expect(deepCanonicalJson(items)).toBe('[null,null,null,null,"x"]');
    expect(deepCanonicalJson([])).toBe('[]');
  });

  it('writes an object that appears twice, not being circular, each time', () => {
    const shared = { x: [1] };
    expect(deepCanonicalJson({ p: shared, q: [shared, { r: shared }] })).toBe(
      '{"p":{"x":[1]},"q":[{"x":[1]},{"r":{"x":[1]}}]}',
    );
  });

  it('writes array-index keys first in numeric order, then the others by code unit, as the native path', () => {
    const value = { b: 1, '10': 2, '2': 3, a: 4, '01': 5, '-1': 6, '4294967295': 7, '4294967294': 8, '': 9 };
    expect(deepCanonicalJson(value)).toBe(
      '{"2":3,"10":2,"4294967294":8,"":9,"-1":6,"01":5,"4294967295":7,"a":4,"b":1}',
    );
  });

  it('refuses a circular structure', () => {
    const loop: unknown[] = [];
    loop.push({ back: loop });
    expect(() => deepCanonicalJson(loop)).toThrow(new TypeError('canonicalJson: circular structure'));
  });
});
