import { describe, expect, it } from 'vitest';
import { MAX_DELIVERY_ATTEMPTS, retryDelayMs } from './retry-schedule';

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
});
