import { describe, expect, test } from 'vitest';
import { DomainError } from '../domain/domain-error';
import type { RateLimitState } from '../domain/rate-limit-window';
import { RateLimits } from './rate-limits';

const MINUTE = Date.UTC(2026, 9, 14, 9, 30); // 09:30:00.000
const LAST_MS = MINUTE + 59_999;

/** Rate limits over windows the test can read and replace. */
function limits(enabled = true) {
  const held = { windows: {} as RateLimitState };
  return { held, limits: new RateLimits(enabled, () => held.windows) };
}

describe('RateLimits: refusals (spec 8)', () => {
  test('the limit-th call passes; the next is 429 rate_limited naming the bucket, consuming nothing', () => {
    const { limits: rateLimits, held } = limits();
    for (let call = 0; call < 30; call++) {
      expect(rateLimits.refusal('k', ['requests', 'sends'], MINUTE)).toBeUndefined();
      rateLimits.charge('k', ['requests', 'sends'], MINUTE);
    }
    const refusal = rateLimits.refusal('k', ['requests', 'sends'], MINUTE + 1);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({
      code: 'rate_limited',
      status: 429,
      message: 'Rate limit of the sends bucket reached; retry after the window resets.',
      details: { bucket: 'sends' },
    });
    expect(held.windows.k!.used).toEqual({ requests: 30, sends: 30, templates: 0 });
  });

  test('the first exhausted bucket in the order asked is named', () => {
    const { limits: rateLimits } = limits();
    for (let call = 0; call < 10; call++) rateLimits.charge('k', ['requests', 'templates'], MINUTE);
    expect(rateLimits.refusal('k', ['requests'], MINUTE)).toBeUndefined();
    expect(rateLimits.refusal('k', ['requests', 'templates'], MINUTE)?.details).toEqual({
      bucket: 'templates',
    });
  });

  test('the window starts again at the next clock minute', () => {
    const { limits: rateLimits } = limits();
    for (let call = 0; call < 10; call++) rateLimits.charge('k', ['templates'], MINUTE);
    expect(rateLimits.refusal('k', ['templates'], LAST_MS)?.code).toBe('rate_limited');
    expect(rateLimits.refusal('k', ['templates'], LAST_MS + 1)).toBeUndefined();
  });

  test('switched off: never refuses, counts nothing, builds no header', () => {
    const { limits: rateLimits, held } = limits(false);
    expect(rateLimits.enabled).toBe(false);
    for (let call = 0; call < 61; call++) {
      expect(rateLimits.refusal('k', ['requests'], MINUTE)).toBeUndefined();
      rateLimits.charge('k', ['requests'], MINUTE);
    }
    expect(held.windows).toEqual({});
    expect(rateLimits.headers('k', 'requests', MINUTE)).toBeUndefined();
  });
});

describe('RateLimits: what the caller is told (spec 8)', () => {
  test('RateLimit-* headers of a bucket: limit, what is left, whole seconds to the reset', () => {
    const { limits: rateLimits } = limits();
    expect(rateLimits.enabled).toBe(true);
    rateLimits.charge('k', ['requests', 'sends'], MINUTE);
    expect(rateLimits.headers('k', 'sends', MINUTE + 15_000)).toEqual({
      'ratelimit-limit': '30',
      'ratelimit-remaining': '29',
      'ratelimit-reset': '45',
    });
    expect(rateLimits.headers('k', 'requests', LAST_MS)).toEqual({
      'ratelimit-limit': '60',
      'ratelimit-remaining': '59',
      'ratelimit-reset': '1',
    });
    expect(rateLimits.headers('k', 'templates', LAST_MS + 1)).toEqual({
      'ratelimit-limit': '10',
      'ratelimit-remaining': '10',
      'ratelimit-reset': '60',
    });
  });

  test("resetSeconds: a 429's Retry-After, 60 at :00.000 and 1 at :59.999, limits on or off", () => {
    expect(limits().limits.resetSeconds('k', 'sends', MINUTE)).toBe(60);
    expect(limits().limits.resetSeconds('k', 'sends', LAST_MS)).toBe(1);
    expect(limits(false).limits.resetSeconds('k', 'requests', MINUTE + 30_500)).toBe(30);
  });

  test('usage: the current window of every bucket', () => {
    const { limits: rateLimits } = limits();
    rateLimits.charge('k', ['requests', 'templates'], MINUTE);
    expect(rateLimits.usage('k', MINUTE + 59_000)).toEqual({
      requests: { bucket: 'requests', limit: 60, remaining: 59, resetSeconds: 1 },
      sends: { bucket: 'sends', limit: 30, remaining: 30, resetSeconds: 1 },
      templates: { bucket: 'templates', limit: 10, remaining: 9, resetSeconds: 1 },
    });
  });

  test('forget: a revoked key loses its windows, other keys keep theirs', () => {
    const { limits: rateLimits, held } = limits();
    for (let call = 0; call < 10; call++) rateLimits.charge('k1', ['templates'], MINUTE);
    rateLimits.charge('k2', ['templates'], MINUTE);
    rateLimits.forget('k1');
    expect(Object.keys(held.windows)).toEqual(['k2']);
    expect(rateLimits.refusal('k1', ['templates'], MINUTE)).toBeUndefined();
    expect(rateLimits.usage('k2', MINUTE).templates.remaining).toBe(9);
  });

  test('windows are read at each call: after a reset replaces them, the count starts again', () => {
    const { limits: rateLimits, held } = limits();
    for (let call = 0; call < 10; call++) rateLimits.charge('k', ['templates'], MINUTE);
    held.windows = {};
    expect(rateLimits.refusal('k', ['templates'], MINUTE)).toBeUndefined();
    rateLimits.charge('k', ['templates'], MINUTE);
    expect(held.windows.k!.used.templates).toBe(1);
  });
});
