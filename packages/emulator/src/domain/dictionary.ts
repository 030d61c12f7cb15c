/**
 * A collection keyed by ids that come from outside (URLs, bodies, seed files, a data dir). It has
 * no prototype, so an id such as `__proto__` or `constructor` is only ever an absent key: reading
 * it finds nothing, writing it creates an own entry, and `Object.prototype` is never touched.
 */
export type Dictionary<Value> = Record<string, Value>;

/** An empty {@link Dictionary}. */
export function createDictionary<Value>(): Dictionary<Value> {
  return Object.create(null) as Dictionary<Value>;
}

/** A {@link Dictionary} holding the own entries of `source` (e.g. a parsed snapshot's plain object). */
export function toDictionary<Value>(
  source: Readonly<Record<string, Value>> | null | undefined,
): Dictionary<Value> {
  const dictionary = createDictionary<Value>();
  if (source) for (const [key, value] of Object.entries(source)) dictionary[key] = value;
  return dictionary;
}
