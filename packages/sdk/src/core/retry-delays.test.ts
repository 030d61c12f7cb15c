import { afterEach, describe, expect, it, vi } from 'vitest';
import { rejectionOf, withFakeTime } from '../_test/fake-time';
import { errorReply, type Reply, useTestServer } from '../_test/test-server';
import { InternalServerError } from '../errors/api-error';
import type { ParleyOptions } from './client-options';

const server = useTestServer();
const ok: Reply = { body: { status: 'authenticated' } };

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * Calls `GET /status` answered by `replies` (the last repeating) under fake time, and returns
 * the outcome and the fake milliseconds between one attempt and the next.
 */
async function gapsBetweenAttempts(options: ParleyOptions, ...replies: Reply[]) {
  const sentAt: number[] = [];
  const queue = [...replies];
  server.on('GET', '/status', () => {
    sentAt.push(Date.now());
    return (queue.length > 1 ? queue.shift() : queue[0])!;
  });
  const { outcome } = await withFakeTime(
    () =>
      server
        .client(options)
        .status.get()
        .then((status) => status),
    5,
  );
  return { outcome, gaps: sentAt.slice(1).map((at, index) => at - sentAt[index]!) };
}

/** The wait before retry k (1-based): 0.5 s × 2^(k-1) scaled by 0.5 + random/2, then capped at 8 s. */
const backoff = (random: number) =>
  [500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000].map((delay) =>
    Math.min(8_000, delay * (0.5 + random / 2)),
  );

describe('back-off between attempts', () => {
  it.each([0, 0.5, 0.999_999])(
    'waits 0.5 s doubling per attempt, jittered into [50 %, 100 %], capped at 8 s (random %d)',
    async (random) => {
      vi.spyOn(Math, 'random').mockReturnValue(random);
      const { outcome, gaps } = await gapsBetweenAttempts({ maxRetries: 7 }, errorReply('internal_error'));
      expect(rejectionOf(outcome)).toMatchObject({ status: 500 });
      expect(gaps).toHaveLength(7);
      backoff(random).forEach((expected, attempt) => {
        expect(gaps[attempt], `before retry ${attempt + 1}`).toBeGreaterThanOrEqual(Math.floor(expected));
        expect(gaps[attempt], `before retry ${attempt + 1}`).toBeLessThanOrEqual(Math.ceil(expected) + 5);
      });
    },
  );

  it('keeps every wait within its range with real randomness', async () => {
    const { gaps } = await gapsBetweenAttempts({ maxRetries: 6 }, errorReply('internal_error'));
    const [lowest, highest] = [backoff(0), backoff(1)];
    gaps.forEach((gap, attempt) => {
      expect(gap).toBeGreaterThanOrEqual(lowest[attempt]!);
      expect(gap).toBeLessThanOrEqual(highest[attempt]! + 5);
    });
  });
});

describe('statuses retried', () => {
  it.each([500, 501, 502, 504, 507, 599, 408])('retries %d with back-off, then succeeds', async (status) => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { outcome, gaps } = await gapsBetweenAttempts({}, { status, body: {} }, ok);
    expect(outcome).toEqual({ status: 'fulfilled', value: ok.body });
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toBeGreaterThanOrEqual(250);
    expect(gaps[0]).toBeLessThanOrEqual(255);
  });

  it.each([400, 401, 403, 404, 410, 418, 422])('never retries %d', async (status) => {
    const { outcome, gaps } = await gapsBetweenAttempts({}, { status, body: {} }, ok);
    expect(rejectionOf(outcome)).toMatchObject({ status, code: `http_${status}` });
    expect(gaps).toEqual([]);
  });

  it('waits the Retry-After of a 503 exactly, without jitter', async () => {
    const unavailable = { status: 503, body: {}, headers: { 'retry-after': '3' } };
    const { outcome, gaps } = await gapsBetweenAttempts({}, unavailable, ok);
    expect(outcome.status).toBe('fulfilled');
    expect(gaps[0]).toBeGreaterThanOrEqual(3_000);
    expect(gaps[0]).toBeLessThanOrEqual(3_005);
  });

  it('backs off after a 503 without Retry-After, and fails fast when it exceeds maxRetryAfter', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const retried = await gapsBetweenAttempts({}, { status: 503, body: {} }, ok);
    expect(retried.outcome.status).toBe('fulfilled');
    expect(retried.gaps[0]).toBeLessThanOrEqual(255);
    const tooLong = { status: 503, body: {}, headers: { 'retry-after': '11' } };
    const refused = await gapsBetweenAttempts({ maxRetryAfter: 10_000 }, tooLong, ok);
    const error = rejectionOf(refused.outcome) as InternalServerError;
    expect(Object.getPrototypeOf(error)).toBe(InternalServerError.prototype);
    expect(error.headers.get('retry-after')).toBe('11');
    expect(refused.gaps).toEqual([]);
  });

  it('retries a 5xx other than 503 with back-off even when it has a Retry-After', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { outcome, gaps } = await gapsBetweenAttempts(
      {},
      { status: 501, body: {}, headers: { 'retry-after': '3' } },
      ok,
    );
    expect(outcome.status).toBe('fulfilled');
    expect(gaps[0]).toBeLessThanOrEqual(255);
  });

  it('retries a 5xx whatever its RateLimit-Reset, which times the rate-limit window only', async () => {
    const failed = { status: 500, body: {}, headers: { 'ratelimit-reset': '42' } };
    const { outcome, gaps } = await gapsBetweenAttempts({ maxRetryAfter: 10_000 }, failed, ok);
    expect(outcome.status).toBe('fulfilled');
    expect(gaps).toHaveLength(1);
  });

  it('never retries an error that is not about the exchange (a bug in a custom fetch)', async () => {
    let calls = 0;
    const fetch = async () => {
      calls++;
      throw new RangeError('bug in my fetch');
    };
    const error = await server
      .client({ fetch })
      .status.get()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RangeError);
    expect(calls).toBe(1);
  });
});
