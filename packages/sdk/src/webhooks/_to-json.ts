/**
 * What `JSON.stringify` writes in place of `value`: the result of its `toJSON(key)` when it has
 * one (a `Date`, a class's own form), else the value itself.
 */
export function replacedByToJson(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  return typeof toJSON === 'function' ? toJSON.call(value, key) : value;
}
