import { describe, expect, test } from 'vitest';
import {
  consume,
  exhaustedBucket,
  RATE_LIMITS,
  type RateLimitState,
  report,
  usageOf,
  windowStart,
} from './rate-limit-window';

const MINUTE = Date.UTC(2026, 9, 14, 9, 30); // 09:30:00.000
const LAST_MS = MINUTE + 59_999; // 09:30:59.999

/** Calls like the v1 pipeline: refused if a bucket is exhausted, else counted. */
function call(state: RateLimitState, keyId: string, buckets: Parameters<typeof consume>[2], now: number) {
  const refused = exhaustedBucket(state, keyId, buckets, now);
  if (!refused) consume(state, keyId, buckets, now);
  return refused;
}

describe('per-minute rate limits (spec 8)', () => {
  test('defaults: requests 60, sends 30, templates 10', () => {
    expect(RATE_LIMITS).toEqual({ requests: 60, sends: 30, templates: 10 });
  });

  test('windows align to clock minutes', () => {
    expect(windowStart(MINUTE)).toBe(MINUTE);
    expect(windowStart(MINUTE + 1)).toBe(MINUTE);
    expect(windowStart(LAST_MS)).toBe(MINUTE);
    expect(windowStart(LAST_MS + 1)).toBe(MINUTE + 60_000);
  });

  test('RateLimit-Reset: 60 s at :00.000, 1 s at :59.999, rounded up between', () => {
    const state: RateLimitState = {};
    expect(report(state, 'k', 'requests', MINUTE).resetSeconds).toBe(60);
    expect(report(state, 'k', 'requests', MINUTE + 1).resetSeconds).toBe(60);
    expect(report(state, 'k', 'requests', MINUTE + 1000).resetSeconds).toBe(59);
    expect(report(state, 'k', 'requests', MINUTE + 1001).resetSeconds).toBe(59);
    expect(report(state, 'k', 'requests', LAST_MS - 1000).resetSeconds).toBe(2);
    expect(report(state, 'k', 'requests', LAST_MS).resetSeconds).toBe(1);
  });

  test('the limit-th call passes, the next is refused; a refused call consumes nothing', () => {
    const state: RateLimitState = {};
    for (let i = 0; i < 30; i++) expect(call(state, 'k', ['requests', 'sends'], MINUTE + i)).toBeUndefined();
    expect(report(state, 'k', 'sends', MINUTE + 30)).toEqual({
      bucket: 'sends',
      limit: 30,
      remaining: 0,
      resetSeconds: 60,
    });
    expect(call(state, 'k', ['requests', 'sends'], MINUTE + 30)).toBe('sends');
    expect(call(state, 'k', ['requests', 'sends'], MINUTE + 31)).toBe('sends');
    // The two refused sends did not count against `requests` either.
    expect(report(state, 'k', 'requests', MINUTE + 32).remaining).toBe(30);
    for (let i = 0; i < 30; i++) expect(call(state, 'k', ['requests'], MINUTE + 40 + i)).toBeUndefined();
    expect(report(state, 'k', 'requests', MINUTE + 100).remaining).toBe(0);
    expect(call(state, 'k', ['requests'], MINUTE + 100)).toBe('requests');
    expect(state.k!.used).toEqual({ requests: 60, sends: 30, templates: 0 });
  });

  test('the first exhausted bucket in the order given is reported', () => {
    const state: RateLimitState = {};
    for (let i = 0; i < 10; i++) call(state, 'k', ['requests', 'templates'], MINUTE);
    expect(exhaustedBucket(state, 'k', ['requests', 'templates'], MINUTE)).toBe('templates');
    for (let i = 0; i < 50; i++) call(state, 'k', ['requests'], MINUTE);
    expect(exhaustedBucket(state, 'k', ['requests', 'templates'], MINUTE)).toBe('requests');
    expect(exhaustedBucket(state, 'k', ['templates', 'requests'], MINUTE)).toBe('templates');
    expect(exhaustedBucket(state, 'k', [], MINUTE)).toBeUndefined();
  });

  test('the window resets at the next clock minute, not 60 s after the first call', () => {
    const state: RateLimitState = {};
    for (let i = 0; i < 10; i++) call(state, 'k', ['templates'], LAST_MS - 1);
    expect(call(state, 'k', ['templates'], LAST_MS)).toBe('templates');
    expect(call(state, 'k', ['templates'], LAST_MS + 1)).toBeUndefined();
    expect(report(state, 'k', 'templates', LAST_MS + 1)).toEqual({
      bucket: 'templates',
      limit: 10,
      remaining: 9,
      resetSeconds: 60,
    });
  });

  test('windows are per key', () => {
    const state: RateLimitState = {};
    for (let i = 0; i < 10; i++) call(state, 'k1', ['templates'], MINUTE);
    expect(call(state, 'k1', ['templates'], MINUTE)).toBe('templates');
    expect(call(state, 'k2', ['templates'], MINUTE)).toBeUndefined();
    expect(report(state, 'k2', 'templates', MINUTE).remaining).toBe(9);
  });

  test('usageOf: a report per bucket', () => {
    const state: RateLimitState = {};
    consume(state, 'k', ['requests', 'sends'], MINUTE);
    consume(state, 'k', ['requests'], MINUTE);
    expect(usageOf(state, 'k', LAST_MS)).toEqual({
      requests: { bucket: 'requests', limit: 60, remaining: 58, resetSeconds: 1 },
      sends: { bucket: 'sends', limit: 30, remaining: 29, resetSeconds: 1 },
      templates: { bucket: 'templates', limit: 10, remaining: 10, resetSeconds: 1 },
    });
  });
});
