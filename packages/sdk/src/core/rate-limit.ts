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
export function readRateLimit(headers: Headers): RateLimitInfo | null {
  const [limit, remaining, reset] = ['limit', 'remaining', 'reset'].map((name) =>
    seconds(headers, `RateLimit-${name}`),
  );
  return limit === undefined || remaining === undefined || reset === undefined
    ? null
    : { limit, remaining, reset };
}

/** `Retry-After` in milliseconds (delay-seconds or HTTP date), or undefined when absent or unreadable. */
export function readRetryAfter(headers: Headers): number | undefined {
  const delay = seconds(headers, 'Retry-After');
  if (delay !== undefined) return delay * 1000;
  // All three HTTP-date forms (RFC 9110 5.6.7) open with the day name: Date.parse alone would
  // read "1.5" or "-1" as a day of 2001, a wait of 0 where the header says nothing readable.
  // Stryker disable next-line StringLiteral: equivalent, any text without a day name reads as none
  const value = headers.get('Retry-After') ?? '';
  const date = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function seconds(headers: Headers, name: string): number | undefined {
  // Headers already strips the whitespace around a value.
  const value = headers.get(name);
  return value && /^\d+$/.test(value) ? +value : undefined;
}
