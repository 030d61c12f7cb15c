import { replacedByToJson } from './_to-json';

/** An array or object being written, and how far. */
interface OpenContainer {
  readonly value: object;
  /** Member names in output order; undefined for an array. */
  readonly keys: readonly string[] | undefined;
  readonly length: number;
  next: number;
  written: boolean;
}

/**
 * `canonicalJson` for values nested too deep for recursion: the same text, written by a loop
 * over an explicit stack, so depth is bounded by memory, not by the call stack.
 */
export function deepCanonicalJson(value: unknown): string {
  const open: OpenContainer[] = [];
  const onPath = new Set<object>();
  let json = write(replacedByToJson(value, ''), open, onPath) as string;
  while (open.length > 0) {
    const container = open[open.length - 1]!;
    if (container.next === container.length) {
      json += container.keys ? '}' : ']';
      onPath.delete(container.value);
      open.pop();
      continue;
    }
    const index = container.next++;
    const key = container.keys?.[index];
    const child = replacedByToJson(
      (container.value as Record<string, unknown>)[key ?? index],
      key ?? String(index),
    );
    const separator = container.written ? ',' : '';
    if (key === undefined) {
      // As JSON.stringify: null in an array where a value has no JSON text (undefined, a function, a hole).
      json += separator + (write(child, open, onPath) ?? 'null');
    } else if (child !== undefined && typeof child !== 'function' && typeof child !== 'symbol') {
      json += `${separator}${JSON.stringify(key)}:${write(child, open, onPath)}`;
    } else continue;
    container.written = true;
  }
  return json;
}

/** The text of a primitive, or the opening bracket of a container (then pushed on `open`). */
function write(value: unknown, open: OpenContainer[], onPath: Set<object>): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (onPath.has(value)) throw new TypeError('canonicalJson: circular structure');
  onPath.add(value);
  const keys = Array.isArray(value) ? undefined : memberOrder(value);
  open.push({
    value,
    keys,
    length: keys?.length ?? (value as unknown[]).length,
    next: 0,
    written: false,
  });
  return keys ? '{' : '[';
}

/**
 * Own enumerable keys in the order the native path writes them: UTF-16 code unit order, except
 * that array-index keys ("0", "42") come first in numeric order, as an ordinary object lists them.
 */
function memberOrder(node: object): string[] {
  const keys = Object.keys(node).sort();
  // Stryker disable next-line ConditionalExpression: equivalent, the split below gives the same order, only slower
  if (!keys.some(isArrayIndex)) return keys;
  const indices = keys.filter(isArrayIndex).sort((left, right) => +left - +right);
  return indices.concat(keys.filter((key) => !isArrayIndex(key)));
}

/** A canonical integer string from 0 to 2^32 - 2, which ordinary objects list first. */
function isArrayIndex(key: string): boolean {
  const code = key.charCodeAt(0);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, the digit check only spares the conversion below
  if (code < 48 || code > 57) return false;
  return `${+key >>> 0}` === key && key !== '4294967295';
}
