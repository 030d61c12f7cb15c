import { describe, expect, it } from 'vitest';
import { MAX_DELIVERY_ATTEMPTS, RETRY_SCHEDULES, type RetrySchedule, retryDelayMs } from './retry-schedule';

/** The delays of a whole series, in ms: after failure 1 … maxAttempts - 1. */
const delaysOf = (schedule: RetrySchedule) =>
  Array.from({ length: schedule.maxAttempts - 1 }, (_, index) => schedule.delayAfter(index + 1));
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('retry schedule (DESIGN §3, spec 8)', () => {
  it('waits min(6 h, 30 s × 2^k) after the k-th failure, about 20.5 h over 12 attempts', () => {
    const delays = Array.from(
      { length: MAX_DELIVERY_ATTEMPTS - 1 },
      (_, index) => retryDelayMs(index + 1) / 1000,
    );
    expect(delays).toEqual([60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 21600, 21600]);
    const hours = delays.reduce((sum, delay) => sum + delay, 0) / 3600;
    expect(hours).toBeCloseTo(20.52, 2);
  });

  it('real is exactly that schedule: 12 attempts, 73,860 s of waiting', () => {
    const real = RETRY_SCHEDULES.real;
    expect(real.maxAttempts).toBe(12);
    expect(delaysOf(real)).toEqual([
      60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_840_000, 7_680_000, 15_360_000, 21_600_000,
      21_600_000,
    ]);
    expect(sum(delaysOf(real))).toBe(73_860_000);
  });

  it('fast keeps the shape 1,200 times faster: min(18 s, 25 ms × 2^k), 12 attempts in 61.55 s', () => {
    const fast = RETRY_SCHEDULES.fast;
    expect(fast.maxAttempts).toBe(12);
    expect(delaysOf(fast)).toEqual([50, 100, 200, 400, 800, 1_600, 3_200, 6_400, 12_800, 18_000, 18_000]);
    expect(sum(delaysOf(fast))).toBe(61_550);
  });

  it('none makes one attempt and no retry', () => {
    expect(RETRY_SCHEDULES.none.maxAttempts).toBe(1);
    expect(delaysOf(RETRY_SCHEDULES.none)).toEqual([]);
  });
});
