import { describe, expect, test } from 'vitest';
import { createDictionary, toDictionary } from './dictionary';

describe('dictionary: ids from outside never reach Object.prototype', () => {
  // Read and written through a variable, as ids from a URL or a body are.
  const hostileIds: string[] = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

  test('createDictionary: empty, no prototype, nothing inherited', () => {
    const dictionary = createDictionary<number>();
    expect(Object.getPrototypeOf(dictionary)).toBeNull();
    expect(Object.keys(dictionary)).toEqual([]);
    for (const id of hostileIds) expect(dictionary[id]).toBeUndefined();
  });

  test('__proto__, constructor and the like are ordinary own keys', () => {
    const dictionary = createDictionary<string>();
    for (const id of hostileIds) dictionary[id] = `value of ${id}`;
    expect(Object.keys(dictionary)).toEqual(hostileIds);
    expect(Object.getPrototypeOf(dictionary)).toBeNull();
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
  });

  test('toDictionary: the own entries of the source, no prototype', () => {
    const source = JSON.parse('{"a":1,"__proto__":2}') as Record<string, number>;
    const dictionary = toDictionary(source);
    expect(Object.getPrototypeOf(dictionary)).toBeNull();
    expect(Object.entries(dictionary)).toEqual([
      ['a', 1],
      ['__proto__', 2],
    ]);
    const inherited = Object.create({ inherited: 1 }) as Record<string, number>;
    inherited.own = 2;
    expect(Object.entries(toDictionary(inherited))).toEqual([['own', 2]]);
  });

  test.each([null, undefined])('toDictionary(%s): empty', (source) => {
    const dictionary = toDictionary(source);
    expect(Object.keys(dictionary)).toEqual([]);
    expect(Object.getPrototypeOf(dictionary)).toBeNull();
  });
});
