/** Attempts a delivery gets before it is `failed` (spec 8). */
export const MAX_DELIVERY_ATTEMPTS = 12;

const BASE_DELAY_MS = 30_000;
const MAX_DELAY_MS = 6 * 60 * 60 * 1000;
/** `fast` divides every delay of the real schedule by this: 12 attempts in about a minute. */
const FAST_DIVISOR = 1_200;

/**
 * Delay before the next attempt after the `failedAttempts`-th failure (1 … 11):
 * min(6 h, 30 s × 2^k) (DESIGN §3), so 60 s, 120 s, 240 s … summing to about 20.5 h.
 */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** failedAttempts);
}

/** `real`: the service's schedule; `fast`: the same shape about 1,200 times faster; `none`: one attempt. */
export type RetryScheduleName = 'real' | 'fast' | 'none';

/** How a failed delivery is retried. */
export interface RetrySchedule {
  readonly name: RetryScheduleName;
  /** Attempts before the delivery is `failed`. */
  readonly maxAttempts: number;
  /** Emulator milliseconds before the next attempt, after the `failedAttempts`-th failure (1 … maxAttempts - 1). */
  delayAfter(failedAttempts: number): number;
}

/**
 * The three schedules of `--retry-schedule`:
 * - `real`: min(6 h, 30 s × 2^k), 12 attempts over about 20.5 h (spec 8), for a frozen clock you advance;
 * - `fast`: min(18 s, 25 ms × 2^k), the real one divided by 1,200: 50 ms, 100 ms … 12.8 s, 18 s, 18 s,
 *   12 attempts over 61.55 s, for a real clock and a receiver you are fixing;
 * - `none`: one attempt, then `failed`.
 */
export const RETRY_SCHEDULES: Readonly<Record<RetryScheduleName, RetrySchedule>> = Object.freeze({
  real: { name: 'real', maxAttempts: MAX_DELIVERY_ATTEMPTS, delayAfter: retryDelayMs },
  fast: {
    name: 'fast',
    maxAttempts: MAX_DELIVERY_ATTEMPTS,
    delayAfter: (failedAttempts: number) => retryDelayMs(failedAttempts) / FAST_DIVISOR,
  },
  none: { name: 'none', maxAttempts: 1, delayAfter: () => Number.POSITIVE_INFINITY },
});
