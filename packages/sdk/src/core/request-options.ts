import type { TelemetryOptions } from './open-telemetry';

/**
 * Headers to send, by name (any case): a string sets one, `null` removes one the client would
 * send, `undefined` leaves it as it is. `Authorization` and `Idempotency-Key` cannot be removed.
 */
export type RequestHeaders = Record<string, string | null | undefined>;

/**
 * Per-call options, the last argument of every resource method; each overrides the client's
 * setting for this call only.
 *
 * @example
 * await parley.status.get({ timeout: 5_000, maxRetries: 0, signal: AbortSignal.timeout(8_000) });
 */
export interface RequestOptions extends TelemetryOptions {
  /**
   * Cancels the call at once, in flight or while a retry waits: it rejects with an
   * `APIUserAbortError` whose `cause` is `signal.reason`, and is never retried.
   */
  signal?: AbortSignal | undefined;
  /** Milliseconds per attempt (the client's `timeout`); for a budget over all attempts pass `signal: AbortSignal.timeout(ms)`. */
  timeout?: number | undefined;
  /** Retries after the first attempt (the client's `maxRetries`). */
  maxRetries?: number | undefined;
  /** Merged over the client's headers; `null` removes one of them. */
  headers?: RequestHeaders | undefined;
}
