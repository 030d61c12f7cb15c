import { describe, expect, it } from 'vitest';
import { rejectionOf, withFakeTime } from '../_test/fake-time';
import { errorReply, type Reply, useTestServer } from '../_test/test-server';
import { RateLimitError } from '../errors/api-error';
import type { ParleyOptions } from './client-options';

const server = useTestServer();
const ok: Reply = { body: { status: 'authenticated' } };
const limited = (headers: Record<string, string>) =>
  errorReply('rate_limited', { details: { bucket: 'requests' }, headers });

/** `GET /status` answered `first`, then `ok`, under fake time: the outcome and the fake ms between the calls. */
async function retriedAfter(options: ParleyOptions, first: (now: number) => Reply) {
  const sentAt: number[] = [];
  server.on('GET', '/status', () => {
    sentAt.push(Date.now());
    return sentAt.length === 1 ? first(sentAt[0]!) : ok;
  });
  const { outcome } = await withFakeTime(
    () =>
      server
        .client(options)
        .status.get()
        .then((status) => status),
    5,
  );
  return {
    outcome,
    attempts: sentAt.length,
    waited: sentAt.length > 1 ? sentAt[1]! - sentAt[0]! : undefined,
  };
}

describe('Retry-After against maxRetryAfter', () => {
  it('waits a Retry-After of exactly maxRetryAfter, and fails fast one second beyond', async () => {
    const atCap = await retriedAfter({ maxRetryAfter: 5_000 }, () => limited({ 'retry-after': '5' }));
    expect(atCap.outcome).toEqual({ status: 'fulfilled', value: ok.body });
    expect(atCap.waited).toBeGreaterThanOrEqual(5_000);
    expect(atCap.waited).toBeLessThanOrEqual(5_005);

    const beyond = await retriedAfter({ maxRetryAfter: 5_000 }, () => limited({ 'retry-after': '6' }));
    expect(rejectionOf(beyond.outcome)).toMatchObject({ retryAfter: 6_000 });
    expect(beyond.attempts).toBe(1);
  });

  it('treats RateLimit-Reset the same way when a 429 has no Retry-After', async () => {
    const atCap = await retriedAfter({ maxRetryAfter: 5_000 }, () => limited({ 'ratelimit-reset': '5' }));
    expect(atCap.outcome.status).toBe('fulfilled');
    expect(atCap.waited).toBeGreaterThanOrEqual(5_000);
    const beyond = await retriedAfter({ maxRetryAfter: 5_000 }, () => limited({ 'ratelimit-reset': '6' }));
    expect(Object.getPrototypeOf(rejectionOf(beyond.outcome))).toBe(RateLimitError.prototype);
    expect(beyond.attempts).toBe(1);
  });

  it('retries a Retry-After of 0 with maxRetryAfter 0 at once', async () => {
    const { outcome, waited } = await retriedAfter({ maxRetryAfter: 0 }, () =>
      limited({ 'retry-after': '0' }),
    );
    expect(outcome.status).toBe('fulfilled');
    expect(waited).toBeLessThanOrEqual(5);
  });
});

describe('Retry-After as an HTTP-date', () => {
  /** An IMF-fixdate `seconds` whole seconds after the next full second from `now`. */
  const dateAfter = (now: number, seconds: number) => new Date((Math.ceil(now / 1000) + seconds) * 1000);

  it('waits until the date', async () => {
    let due = 0;
    const { outcome, waited } = await retriedAfter({}, (now) => {
      const date = dateAfter(now, 4);
      due = date.getTime() - now;
      return limited({ 'retry-after': date.toUTCString() });
    });
    expect(outcome.status).toBe('fulfilled');
    expect(due).toBeGreaterThan(4_000);
    expect(waited).toBeGreaterThanOrEqual(due);
    expect(waited).toBeLessThanOrEqual(due + 5);
  });

  it('retries at once after a date already past', async () => {
    const { outcome, waited } = await retriedAfter({}, (now) =>
      limited({ 'retry-after': new Date(now - 60_000).toUTCString() }),
    );
    expect(outcome.status).toBe('fulfilled');
    expect(waited).toBeLessThanOrEqual(5);
  });

  it('fails fast when the date is further than maxRetryAfter, reporting the wait', async () => {
    let due = 0;
    const { outcome, attempts } = await retriedAfter({ maxRetryAfter: 10_000 }, (now) => {
      const date = dateAfter(now, 30);
      due = date.getTime() - now;
      return limited({ 'retry-after': date.toUTCString() });
    });
    const error = rejectionOf(outcome) as RateLimitError;
    expect(Object.getPrototypeOf(error)).toBe(RateLimitError.prototype);
    expect(error.retryAfter).toBe(due);
    expect(attempts).toBe(1);
  });
});
