import { invalid } from './input-checks';

/** How long `GET /_emulator/idle` waits when `timeout_ms` is not given (real milliseconds, DESIGN §4). */
export const IDLE_TIMEOUT_DEFAULT_MS = 10_000;
/** The longest wait `timeout_ms` may ask for (DESIGN §4). */
export const IDLE_TIMEOUT_MAX_MS = 60_000;

/**
 * The `timeout_ms` of an idle wait: a whole number from 1 to {@link IDLE_TIMEOUT_MAX_MS}, given as a
 * number (in process) or as the query parameter's digits; absent: {@link IDLE_TIMEOUT_DEFAULT_MS}.
 * Anything else is 400 `validation_error` on field `timeout_ms`.
 */
export function parseIdleTimeout(value: unknown): number {
  if (value === undefined || value === null) return IDLE_TIMEOUT_DEFAULT_MS;
  const ms = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 1 || ms > IDLE_TIMEOUT_MAX_MS) {
    invalid(
      'timeout_ms',
      'invalid_value',
      `timeout_ms must be a whole number of milliseconds from 1 to ${IDLE_TIMEOUT_MAX_MS}.`,
    );
  }
  return ms;
}
