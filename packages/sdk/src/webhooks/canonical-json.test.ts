import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';

/**
 * The recursive algorithm canonicalJson had before it became iterative, as the oracle of
 * byte-identical output; its one bug (a `__proto__` key was lost) is fixed here too.
 */
function sortedReference(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedReference);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const child = (value as Record<string, unknown>)[key];
    const member = { value: sortedReference(child), enumerable: true, writable: true, configurable: true };
    if (child !== undefined) Object.defineProperty(sorted, key, member);
  }
  return sorted;
}

/** An object with exactly these own members, `__proto__` included (a literal would set the prototype). */
function objectOf(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return object;
}

/** True when no whitespace stands outside a JSON string in `json`. */
function compactOutsideStrings(json: string): boolean {
  let inString = false;
  for (let index = 0; index < json.length; index++) {
    const char = json[index];
    if (inString && char === '\\') index++;
    else if (char === '"') inString = !inString;
    else if (!inString && /\s/.test(char!)) return false;
  }
  return true;
}

const trickyKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'toJSON',
    'hasOwnProperty',
    '',
    ' ',
    'a b',
    '"',
    '\\',
    '\n',
    '0',
    '1',
    '2',
    '10',
    '01',
    '-1',
    '1.5',
    '1e3',
    '4294967294',
    '4294967295',
    'é',
    'e\u0301',
    'Z',
    'a',
    '😀',
    '\uffff',
    '\ud800',
    '\udfff',
  ),
  fc.string({ unit: 'binary' }),
);

/** JSON-like values with tricky keys, `undefined` members and array holes' stand-ins. */
const { value: trickyValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc
      .array(fc.tuple(trickyKey, fc.oneof(tie('value'), fc.constant(undefined))), { maxLength: 6 })
      .map(objectOf),
  ),
}));

/** `value` wrapped in `levels` arrays, deep enough that canonicalJson leaves its native path. */
/** A JSON.stringify replacer writing object keys in code unit order (for values without index-like keys). */
function sortKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([left], [right]) => (left < right ? -1 : 1)));
}

function nested(value: unknown, levels: number): unknown {
  let wrapped = value;
  for (let level = 0; level < levels; level++) wrapped = [wrapped];
  return wrapped;
}

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps array order and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [true, { d: null, c: 'x y' }, 3] })).toBe(
      '{"a":[true,{"c":"x y","d":null},3],"b":1}',
    );
    expect(canonicalJson({ é: 1, z: 2, Z: 3, '😀': 4, '\uffff': 5 })).toBe(
      '{"Z":3,"z":2,"é":1,"😀":4,"\uffff":5}',
    );
  });

  it('writes primitives and skips members exactly as JSON.stringify does', () => {
    for (const primitive of ['a"\\\n\u2028\ud800', 0, -0, 1.5e300, Number.NaN, Infinity, true, null]) {
      expect(canonicalJson(primitive)).toBe(JSON.stringify(primitive));
    }
    expect(canonicalJson(undefined)).toBeUndefined();
    expect(canonicalJson({ a: undefined, b: () => 1, c: Symbol('c'), d: 1 })).toBe('{"d":1}');
    // biome-ignore lint/suspicious/noSparseArray: a hole is written as null, as JSON.stringify does
    expect(canonicalJson([undefined, () => 1, Symbol('s'), , 1])).toBe('[null,null,null,null,1]');
    expect(() => canonicalJson({ big: 1n })).toThrow(TypeError);
  });

  it('keeps the bytes it has always written for array-index keys (first, in numeric order)', () => {
    const keys = ['b', '4294967295', '4294967294', '10', '2', '01', '-1', '1.5', 'a', '0', '1e3'];
    const expected =
      '{"0":0,"2":0,"10":0,"4294967294":0,"-1":0,"01":0,"1.5":0,"1e3":0,"4294967295":0,"a":0,"b":0}';
    expect(canonicalJson(objectOf(keys.map((key) => [key, 0])))).toBe(expected);
    expect(canonicalJson(nested(objectOf(keys.map((key) => [key, 0])), 2000))).toBe(
      `${'['.repeat(2000)}${expected}${']'.repeat(2000)}`,
    );
  });

  it('keeps an own __proto__ key, at any depth', () => {
    expect(canonicalJson(JSON.parse('{"__proto__":{"a":1}}'))).toBe('{"__proto__":{"a":1}}');
    expect(canonicalJson(JSON.parse('{"b":[{"__proto__":null}],"__proto__":[]}'))).toBe(
      '{"__proto__":[],"b":[{"__proto__":null}]}',
    );
    expect(canonicalJson(nested(JSON.parse('{"__proto__":{"a":1}}'), 2000))).toBe(
      `${'['.repeat(2000)}{"__proto__":{"a":1}}${']'.repeat(2000)}`,
    );
  });

  it('writes objects by their own enumerable keys', () => {
    const inherited = Object.create(
      { inherited: 1 },
      { own: { value: 2, enumerable: true }, hidden: { value: 3 } },
    );
    expect(canonicalJson(inherited)).toBe('{"own":2}');
  });

  it('replaces a value by its toJSON(key) as JSON.stringify does: a Date is its ISO text', () => {
    const at = new Date(0);
    expect(canonicalJson(at)).toBe('"1970-01-01T00:00:00.000Z"');
    expect(canonicalJson({ b: at, a: [at] })).toBe(
      '{"a":["1970-01-01T00:00:00.000Z"],"b":"1970-01-01T00:00:00.000Z"}',
    );
    expect(canonicalJson({ at, toJSON: () => 'replaced', a: 1 })).toBe('"replaced"');
    // Called with its key (an array's index as text, '' at the top), and only once per value.
    const keys: string[] = [];
    const spy = {
      toJSON: (key: string) => {
        keys.push(key);
        return { z: 1, y: key };
      },
    };
    expect(canonicalJson({ member: spy, list: [spy, spy] })).toBe(
      '{"list":[{"y":"0","z":1},{"y":"1","z":1}],"member":{"y":"member","z":1}}',
    );
    expect(keys.sort()).toEqual(['0', '1', 'member']);
    expect(canonicalJson(spy)).toBe('{"y":"","z":1}');
    // undefined from toJSON: the member is left out, an array item is null, as JSON.stringify.
    const gone = { toJSON: () => undefined };
    expect(canonicalJson({ a: gone, b: [gone] })).toBe('{"b":[null]}');
    // A toJSON that is not a function is data.
    expect(canonicalJson({ toJSON: 'text' })).toBe('{"toJSON":"text"}');
    for (const value of [{ b: at, a: [at, gone], c: { gone } }, [spy, { x: spy }]]) {
      expect(canonicalJson(value)).toBe(JSON.stringify(JSON.parse(JSON.stringify(value)), sortKeys));
    }
  });

  it('calls toJSON at any depth, past the native path too', () => {
    const deep = nested({ at: new Date(0), gone: { toJSON: () => undefined } }, 2000);
    expect(canonicalJson(deep)).toBe(
      `${'['.repeat(2000)}{"at":"1970-01-01T00:00:00.000Z"}${']'.repeat(2000)}`,
    );
    expect(canonicalJson(nested([{ toJSON: (key: string) => `k${key}` }], 2000))).toBe(
      `${'['.repeat(2001)}"k0"${']'.repeat(2001)}`,
    );
    expect(canonicalJson(nested({ a: { toJSON: (key: string) => key } }, 2000))).toBe(
      `${'['.repeat(2000)}{"a":"a"}${']'.repeat(2000)}`,
    );
  });

  it.each([5_000, 100_000])('serialises values nested %i levels deep', (depth) => {
    let objects: unknown = { leaf: [] };
    let arrays: unknown = [];
    for (let level = 1; level < depth; level++) {
      objects = { z: level, a: objects };
      arrays = [arrays, level];
    }
    const closings = Array.from({ length: depth - 1 }, (_, index) => index + 1);
    expect(canonicalJson(objects)).toBe(
      `${'{"a":'.repeat(depth - 1)}{"leaf":[]}${closings.map((level) => `,"z":${level}}`).join('')}`,
    );
    expect(canonicalJson(arrays)).toBe(
      `${'['.repeat(depth)}]${closings.map((level) => `,${level}]`).join('')}`,
    );
  });

  it('refuses a circular structure with a TypeError, also deep, and accepts shared ones', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = { back: [loop] };
    for (const value of [loop, nested(loop, 2000)]) {
      const error = (() => {
        try {
          canonicalJson(value);
        } catch (caught) {
          return caught;
        }
      })();
      expect(Object.getPrototypeOf(error)).toBe(TypeError.prototype);
      expect((error as TypeError).message).toBe('canonicalJson: circular structure');
    }
    const shared = { x: [1] };
    expect(canonicalJson({ p: shared, q: shared, r: [shared, shared] })).toBe(
      '{"p":{"x":[1]},"q":{"x":[1]},"r":[{"x":[1]},{"x":[1]}]}',
    );
  });

  it('round-trips any JSON value to a key-sorted copy, with no whitespace outside strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), trickyValue), (value) => {
        const json = canonicalJson(value);
        // The exact bytes, not both texts parsed back and compared: on Node 24.21, JSON.parse of one
        // and the same text intermittently read the escaped key `"\ud800"` as a lone backslash, so
        // two parses of equal texts differed (seed -1497166525, about one run in two, with the texts
        // equal byte for byte). Equal bytes already mean equal values.
        expect(json).toBe(JSON.stringify(sortedReference(value)));
        expect(compactOutsideStrings(json)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('writes the same bytes past the native depth as within it', () => {
    fc.assert(
      fc.property(trickyValue, (value) => {
        const json = canonicalJson(value);
        expect(canonicalJson(nested(value, 1_100))).toBe(`${'['.repeat(1_100)}${json}${']'.repeat(1_100)}`);
        expect(canonicalJson(nested({ m: value }, 1_100))).toBe(
          `${'['.repeat(1_100)}${canonicalJson({ m: value })}${']'.repeat(1_100)}`,
        );
      }),
      { numRuns: 300 },
    );
  });
});
