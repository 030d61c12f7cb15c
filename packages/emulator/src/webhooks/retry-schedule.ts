/** Attempts a delivery gets before it is `failed` (spec 8). */
export const MAX_DELIVERY_ATTEMPTS = 12;

const BASE_DELAY_MS = 30_000;
const MAX_DELAY_MS = 6 * 60 * 60 * 1000;

/**
 * Delay before the next attempt after the `failedAttempts`-th failure (1 … 11):
 * min(6 h, 30 s × 2^k) (DESIGN §3), so 60 s, 120 s, 240 s … summing to about 20.5 h.
 */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** failedAttempts);
}
