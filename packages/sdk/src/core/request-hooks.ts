import type { RateLimitInfo } from './rate-limit';

/**
 * One attempt of a call, as hooks and log lines see it: no header values, no body, never the
 * API key. Fields the attempt has not reached yet are `undefined` (`rateLimit`: null).
 */
export interface RequestEvent {
  /** `GET` or `POST`. */
  method: string;
  /** The URL path, base included, e.g. `/v1/messages`. */
  path: string;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  /** `req_…` from the answer's `X-Request-Id`. */
  requestId: string | undefined;
  /** The Idempotency-Key this attempt carried (`messages.send`: the same on every attempt). */
  idempotencyKey: string | undefined;
  /** The HTTP status; undefined before the answer and when none came (timeout, connection error, abort). */
  status: number | undefined;
  /** Milliseconds from the attempt's start to its answer or failure. */
  durationMs: number | undefined;
  /** The answer's `RateLimit-*` window, or null. */
  rateLimit: RateLimitInfo | null;
  /**
   * Why the attempt failed: the API's error code (`internal_error`, `rate_limited`…), else
   * `TimeoutError`, `ConnectionError` or `APIUserAbortError`; undefined when it succeeded.
   */
  error: string | undefined;
  /** When the attempt was retried: milliseconds waited before the next one (back-off or `Retry-After`). */
  delayMs: number | undefined;
}

/** A failed attempt that is retried: `error` says why, `delayMs` how long the SDK waited. */
export interface RetryEvent extends RequestEvent {
  error: string;
  delayMs: number;
}

/**
 * Hooks for metrics and tracing, called on every attempt of every call. A hook that throws
 * (or rejects) is reported at log level `error` and never changes the call.
 *
 * @example
 * const parley = new Parley({
 *   onResponse: ({ method, path, status, durationMs }) => histogram.observe({ method, path, status }, durationMs),
 * });
 */
export interface RequestHooks {
  /** Before each attempt is sent. */
  onRequest?: ((event: RequestEvent) => void) | undefined;
  /**
   * When each attempt ends, with its status, request id, duration and rate limit; for one that is
   * retried, once the wait is over, just before `onRetry`.
   */
  onResponse?: ((event: RequestEvent) => void) | undefined;
  /** When a failed attempt is retried: after the wait, before the next attempt's `onRequest`. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
}
