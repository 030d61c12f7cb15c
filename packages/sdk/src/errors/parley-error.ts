// A registry-wide symbol, so two copies of the package (or a bundled and an installed one)
// still recognise each other's errors: `instanceof` alone fails across copies.
const ERROR_KINDS = Symbol.for('@parley/sdk.error-kinds');

type Branded = { [ERROR_KINDS]?: readonly string[] };

/**
 * Names an error class and records its kind on the prototype, after its parent's kinds, so
 * the guards recognise instances and subclasses without `instanceof`, and the name survives
 * minification. Returns the guard recognising SDK errors of `kind` (or a subclass), from any
 * package copy.
 */
export function brandError<ErrorClass extends abstract new (...args: never[]) => Error>(
  errorClass: ErrorClass,
  kind: string,
): (value: unknown) => value is InstanceType<ErrorClass> {
  const prototype = errorClass.prototype as Error & Branded;
  Object.assign(prototype, { name: kind, [ERROR_KINDS]: [...(prototype[ERROR_KINDS] ?? []), kind] });
  return (value): value is InstanceType<ErrorClass> =>
    typeof value === 'object' && (value as Branded | null)?.[ERROR_KINDS]?.includes(kind) === true;
}

/**
 * Root of every error this SDK throws. Errors from your own code or from `fetch` that the SDK
 * does not wrap are not `ParleyError`s.
 *
 * @example
 * if (isParleyError(error)) console.error(error.name, error.message);
 */
export class ParleyError extends Error {}

/** True for any error thrown by this SDK, also from another copy of the package. */
export const isParleyError = brandError(ParleyError, 'ParleyError');
