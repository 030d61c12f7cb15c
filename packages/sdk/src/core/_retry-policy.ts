import { errorCodeOf } from '../errors/_error-from-response';
import type { AttemptError } from './_fetch-loop';
import { readRateLimit, readRetryAfter } from './rate-limit';

/**
 * The retry policy of DESIGN §5, as the wait before retry `retry` (1 for the first) after a failed
 * attempt, or undefined for none: retry connection errors, timeouts (408 too), 5xx, 429
 * `rate_limited` (after `Retry-After`, failing fast beyond `maxRetryAfter`) and 409
 * `idempotency_key_in_use`; never other 4xx or `daily_send_limit_reached`. A POST is retried on an
 * ambiguous failure (no answer, 5xx) only when it carries an Idempotency-Key, as `/messages` always
 * does; a POST without one (`/sandbox/events`) is retried only after a 429, which consumed nothing.
 */
export function retryPolicy(maxRetryAfter: number) {
  return ({ request, response, data }: AttemptError, retry: number): number | undefined => {
    const status = response?.status ?? 0;
    if (request.method === 'POST' && !request.headers.has('idempotency-key') && status !== 429) return;
    // 0.5 s doubling per retry, capped at 8 s; the jitter keeps many clients that failed together
    // from retrying in lockstep.
    const backoff = () => Math.min(8_000, 500 * 2 ** (retry - 1) * (0.5 + Math.random() * 0.5));
    if (!response) return backoff();
    const { headers } = response;
    const retryAfter = readRetryAfter(headers);
    // The server's wait: Retry-After, or RateLimit-Reset when a 429 lacks it; past the cap, fail
    // now. A 429 with neither header waits NaN, another status without Retry-After 0: neither is
    // over the cap.
    const reset = Number(readRateLimit(headers)?.reset) * 1000;
    if ((retryAfter ?? (status === 429 ? reset : 0)) > maxRetryAfter) return;
    const code = errorCodeOf(data);
    if (status === 429) {
      if (code === 'daily_send_limit_reached') return;
      // A Retry-After present but unreadable is still the server's answer: back off, as without one.
      const wait = headers.has('retry-after') ? retryAfter : reset;
      return wait! >= 0 ? wait : backoff();
    }
    if (status === 409) return code === 'idempotency_key_in_use' ? backoff() : undefined;
    // A 503 without Retry-After backs off: its RateLimit-Reset, which every answer of the API
    // carries, times the rate-limit window, not the outage.
    if (status === 503 && retryAfter !== undefined) return retryAfter;
    // 408: the API or a proxy stopped waiting for the request, a timeout like our own.
    return status >= 500 || status === 408 ? backoff() : undefined;
  };
}
