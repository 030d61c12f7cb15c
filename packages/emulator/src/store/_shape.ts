import { printable } from './_printable';

/**
 * A check of one value read from the data dir: `undefined` when it has the shape, else where it
 * goes wrong and what was expected there (`message.status: expected one of queued, sent`). Values
 * are never quoted (they may be secrets); keys are, made {@link printable}.
 */
export type Shape = (value: unknown) => string | undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `.status`, `[3]` or `["msg 1"]` prepended to a nested problem. */
function at(segment: string | number, problem: string): string {
  const step =
    typeof segment === 'number'
      ? `[${segment}]`
      : IDENTIFIER.test(segment)
        ? `.${segment}`
        : `[${printable(JSON.stringify(segment))}]`;
  return `${step}${problem}`;
}

const expected = (what: string) => `: expected ${what}`;

/** A string. */
export const text: Shape = (value) => (typeof value === 'string' ? undefined : expected('a string'));

/** A finite number. */
export const finite: Shape = (value) =>
  typeof value === 'number' && Number.isFinite(value) ? undefined : expected('a finite number');

/** A whole number from 0. */
export const count: Shape = (value) =>
  Number.isSafeInteger(value) && (value as number) >= 0 ? undefined : expected('a whole number from 0');

/** `true` or `false`. */
export const flag: Shape = (value) => (typeof value === 'boolean' ? undefined : expected('true or false'));

/** Any JSON object (its content is not checked). */
export const anyObject: Shape = (value) => (isObject(value) ? undefined : expected('an object'));

/** One of the given values. */
export function oneOf(...values: readonly (string | number)[]): Shape {
  return (value) =>
    values.includes(value as string | number) ? undefined : expected(`one of ${values.join(', ')}`);
}

/** `null` or `shape`. */
export function nullable(shape: Shape): Shape {
  return (value) => (value === null ? undefined : shape(value));
}

/** An array of `shape`. */
export function listOf(shape: Shape): Shape {
  return (value) => {
    if (!Array.isArray(value)) return expected('an array');
    for (const [index, item] of value.entries()) {
      const problem = shape(item);
      if (problem !== undefined) return at(index, problem);
    }
    return undefined;
  };
}

/** An object whose every own value is `shape`, whatever its keys (ids). */
export function dictionaryOf(shape: Shape): Shape {
  return (value) => {
    if (!isObject(value)) return expected('an object');
    for (const [key, item] of Object.entries(value)) {
      const problem = shape(item);
      if (problem !== undefined) return at(key, problem);
    }
    return undefined;
  };
}

/**
 * An object with every `required` field and, when present, every `optional` one. Other keys are
 * allowed unless `exact`: records may gain fields, a file's top level may not.
 */
export function fields(
  required: Readonly<Record<string, Shape>>,
  optional: Readonly<Record<string, Shape>> = {},
  exact = false,
): Shape {
  return (value) => {
    if (!isObject(value)) return expected('an object');
    for (const [key, shape] of Object.entries(required)) {
      if (!Object.hasOwn(value, key)) return at(key, ': missing');
      const problem = shape(value[key]);
      if (problem !== undefined) return at(key, problem);
    }
    for (const [key, shape] of Object.entries(optional)) {
      if (!Object.hasOwn(value, key)) continue;
      const problem = shape(value[key]);
      if (problem !== undefined) return at(key, problem);
    }
    if (exact) {
      const unknown = Object.keys(value).find(
        (key) => !Object.hasOwn(required, key) && !Object.hasOwn(optional, key),
      );
      if (unknown !== undefined) return at(unknown, ': not expected here');
    }
    return undefined;
  };
}

/**
 * A problem as one phrase for a message: `state.messages["m1"].announced: expected a whole number
 * from 0`, or `expected an array` for the value itself.
 */
export function describeProblem(problem: string): string {
  if (problem.startsWith(': ')) return problem.slice(2);
  return problem.startsWith('.') ? problem.slice(1) : problem;
}
