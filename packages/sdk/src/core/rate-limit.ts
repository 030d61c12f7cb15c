import type { RateLimitBucket } from '../wire/error';

/** The rate-limit window of the bucket a call used (spec 8), from the `RateLimit-*` headers. */
export interface RateLimitInfo {
  /** Calls allowed per window. */
  limit: number;
  /** Calls left in the current window. */
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
  /** The bucket, when the API names it (in a `rate_limited` error's details). */
  bucket?: RateLimitBucket;
}

/** The rate-limit info of a response, or null when it carries no `RateLimit-*` headers. */
export function readRateLimit(headers: Headers, bucket?: RateLimitBucket): RateLimitInfo | null {
  const limit = readCount(headers, 'ratelimit-limit');
  const remaining = readCount(headers, 'ratelimit-remaining');
  const reset = readCount(headers, 'ratelimit-reset');
  if (limit === undefined || remaining === undefined || reset === undefined) return null;
  return bucket === undefined ? { limit, remaining, reset } : { limit, remaining, reset, bucket };
}

/** `Retry-After` in milliseconds (delay-seconds or HTTP date), or undefined when absent or unreadable. */
export function readRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function readCount(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)?.trim();
  if (!value || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}
