import { afterEach, describe, expect, it, vi } from 'vitest';
import { readRateLimit, readRetryAfter } from './rate-limit';

const now = Date.UTC(2026, 10, 23, 10, 0, 0);

afterEach(() => {
  vi.useRealTimers();
});

describe('readRateLimit', () => {
  it('reads the three RateLimit-* headers as numbers', () => {
    const headers = new Headers({
      'RateLimit-Limit': '60',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '42',
    });
    expect(readRateLimit(headers)).toEqual({ limit: 60, remaining: 0, reset: 42 });
  });

  it.each(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])('is null without %s', (name) => {
    const headers = new Headers({
      'ratelimit-limit': '60',
      'ratelimit-remaining': '1',
      'ratelimit-reset': '2',
    });
    headers.delete(name);
    expect(readRateLimit(headers)).toBeNull();
  });

  it.each(['', '-1', '1.5', '1e3', '0x10', 'ten', '7 s'])('is null when a value is %j', (value) => {
    const headers = new Headers({
      'ratelimit-limit': '60',
      'ratelimit-remaining': value,
      'ratelimit-reset': '2',
    });
    expect(readRateLimit(headers)).toBeNull();
  });
});

describe('readRetryAfter', () => {
  const retryAfter = (value: string) => readRetryAfter(new Headers({ 'retry-after': value }));

  it('reads delay-seconds as milliseconds', () => {
    expect(retryAfter('0')).toBe(0);
    expect(retryAfter('7')).toBe(7_000);
    expect(retryAfter(' 61 ')).toBe(61_000);
  });

  it('reads each HTTP-date form as the milliseconds left until it, 0 once past', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    expect(retryAfter('Mon, 23 Nov 2026 10:00:05 GMT')).toBe(5_000);
    expect(retryAfter('Monday, 23-Nov-26 10:01:00 GMT')).toBe(60_000);
    expect(retryAfter('Mon Nov 23 10:00:30 2026')).toBe(30_000);
    expect(retryAfter('Mon, 23 Nov 2026 09:59:00 GMT')).toBe(0);
  });

  it.each(['1.5', '-1', '7 s', 'soon', '2026-11-23T10:00:05Z', '1e3', 'x Mon, 23 Nov 2026 10:00:05 GMT'])(
    'is undefined for %j, neither delay-seconds nor an HTTP-date',
    (value) => {
      expect(retryAfter(value)).toBeUndefined();
    },
  );

  it('is undefined when absent', () => {
    expect(readRetryAfter(new Headers())).toBeUndefined();
  });
});
