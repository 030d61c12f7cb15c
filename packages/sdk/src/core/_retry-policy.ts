import { isHTTPError, isNetworkError, isTimeoutError, type RetryOptions } from 'ky';
import { errorCodeOf } from '../errors/_error-from-response';
import { readRateLimit, readRetryAfter } from './rate-limit';

/**
 * ky retry options for DESIGN §5: retry connection errors, timeouts (408 too), 5xx, 429 `rate_limited`
 * (after `Retry-After`, failing fast beyond `maxRetryAfter`) and 409 `idempotency_key_in_use`;
 * never other 4xx or `daily_send_limit_reached`. A POST is retried on an ambiguous failure
 * (no answer, 5xx) only when it carries an Idempotency-Key, as `/messages` always does; a
 * POST without one (`/sandbox/events`) is retried only after a 429, which consumed nothing.
 */
export function retryPolicy(maxRetries: number, maxRetryAfter: number): RetryOptions {
  return {
    limit: maxRetries,
    methods: ['get', 'post'],
    maxRetryAfter,
    delay: (attempt) => 500 * 2 ** (attempt - 1),
    backoffLimit: 8_000,
    // Jitter keeps many clients that failed together from retrying in lockstep.
    jitter: (delay) => delay * (0.5 + Math.random() * 0.5),
    // `true` retries after the backoff above. `undefined` is left only for 429, and 503 with
    // Retry-After, which ky's default `statusCodes` and `afterStatusCodes` retry after it.
    shouldRetry: ({ error }) => {
      const http = isHTTPError(error);
      if (!http && !isTimeoutError(error) && !isNetworkError(error)) return false;
      const status = http ? error.response.status : 0;
      if (
        error.request.method === 'POST' &&
        !error.request.headers.has('idempotency-key') &&
        status !== 429
      ) {
        return false;
      }
      if (!http) return true;
      const { headers } = error.response;
      // ky waits Retry-After, or RateLimit-Reset when a 429 lacks it; past the cap, fail now.
      // A 429 with neither header waits NaN, another status without Retry-After 0: neither is over
      // the cap (saves 11 B gzip in `{ Parley }` over testing for no wait).
      const retryAfter = readRetryAfter(headers);
      if (
        (retryAfter ?? (status === 429 ? Number(readRateLimit(headers)?.reset) * 1000 : 0)) > maxRetryAfter
      ) {
        return false;
      }
      const code = errorCodeOf(error.data);
      if (status === 429) return code === 'daily_send_limit_reached' ? false : undefined;
      if (status === 409) return code === 'idempotency_key_in_use';
      // A 503 without Retry-After backs off: ky would wait its RateLimit-Reset, which every
      // answer of the API carries and which times the rate-limit window, not the outage.
      if (status === 503 && retryAfter !== undefined) return undefined;
      // 408: the API or a proxy stopped waiting for the request, a timeout like our own.
      return status >= 500 || status === 408;
    },
  };
}
