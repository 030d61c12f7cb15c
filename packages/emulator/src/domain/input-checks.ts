import { DomainError } from './domain-error';

/** Throws 400 `validation_error` naming the field and why (`details.field`, `details.reason`). */
export function invalid(field: string, reason: string, message: string): never {
  throw new DomainError('validation_error', message, { field, reason });
}

/** Whether a parsed JSON value is an object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A request body as an object, or 400 `validation_error` on field `body`. The reason and message
 * are the caller's, since each input has documented its own.
 *
 * @example
 * const body = asObject(input); // throws for [], null, "text" or 42
 */
export function asObject(
  input: unknown,
  reason = 'invalid_type',
  message = 'The body must be a JSON object.',
): Record<string, unknown> {
  if (!isObject(input)) invalid('body', reason, message);
  return input;
}

/** A control call's body: a call without one is one with every field left out. */
export function controlBody(input: unknown): Record<string, unknown> {
  return input === undefined ? {} : asObject(input);
}
