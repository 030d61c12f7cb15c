// A registry-wide symbol, so two copies of the package (or a bundled and an installed one)
// still recognise each other's errors: `instanceof` alone fails across copies.
const ERROR_KINDS = Symbol.for('@parley/sdk.error-kinds');

type Branded = { [ERROR_KINDS]?: readonly string[] };

/** Records `kind` on `error` so the guards can recognise it without `instanceof`. */
export function markErrorKind(error: Error, kind: string): void {
  const kinds = (error as Branded)[ERROR_KINDS] ?? [];
  Object.defineProperty(error, ERROR_KINDS, { value: [...kinds, kind], configurable: true });
  error.name = kind;
}

/** True when `value` is an SDK error of `kind` (or a subclass of it), from any package copy. */
export function isErrorOfKind(value: unknown, kind: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const kinds = (value as Branded)[ERROR_KINDS];
  return Array.isArray(kinds) && kinds.includes(kind);
}

/**
 * Root of every error this SDK throws. Errors from your own code or from `fetch` that the SDK
 * does not wrap are not `ParleyError`s.
 *
 * @example
 * if (isParleyError(error)) console.error(error.name, error.message);
 */
export class ParleyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    markErrorKind(this, 'ParleyError');
  }
}

/** True for any error thrown by this SDK, also from another copy of the package. */
export function isParleyError(value: unknown): value is ParleyError {
  return isErrorOfKind(value, 'ParleyError');
}

/**
 * A wrong or missing option: no API key, no base URL, a key of the wrong shape, a bad
 * webhook secret. Never carries the key itself.
 */
export class ConfigurationError extends ParleyError {
  constructor(message: string) {
    super(message);
    markErrorKind(this, 'ConfigurationError');
  }
}

/** True for a {@link ConfigurationError}, also from another copy of the package. */
export function isConfigurationError(value: unknown): value is ConfigurationError {
  return isErrorOfKind(value, 'ConfigurationError');
}
