import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { rejectionOf, withFakeTime } from '../_test/fake-time';
import { errorReply, TEST_API_KEY, useTestServer } from '../_test/test-server';
import {
  ConflictError,
  DailyLimitError,
  InternalServerError,
  isRateLimitError,
  RateLimitError,
  ValidationError,
} from '../errors/api-error';
import { ConnectionError, TimeoutError } from '../errors/connection-error';

const server = useTestServer();
const textMessage = {
  type: 'text',
  connection_id: 'c0ffee00-0000-4000-8000-000000000001',
  to: '+33612345678',
  text: 'Bonjour',
} as const;
const sent = { id: 'm1', object: 'message', status: 'queued' };

describe('retries', () => {
  it('retries a send after 5xx with the same Idempotency-Key on every attempt', async () => {
    server.on('POST', '/messages', errorReply('internal_error'), errorReply('internal_error'), {
      status: 202,
      body: sent,
    });
    const { outcome } = await withFakeTime(() =>
      server
        .client()
        .messages.send(textMessage)
        .then((m) => m),
    );
    expect(outcome).toEqual({ status: 'fulfilled', value: sent });
    const keys = server.requests.map((request) => request.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
  });

  it('retries a timed-out send with the same Idempotency-Key (the first may have been accepted)', async () => {
    server.on('POST', '/messages', { delayMs: 400, status: 202, body: sent }, { status: 202, body: sent });
    const message = await server.client({ timeout: 40, maxRetries: 1 }).messages.send(textMessage);
    expect(message).toEqual(sent);
    const keys = server.requests.map((request) => request.headers.get('idempotency-key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('uses the caller-given Idempotency-Key, fresh keys otherwise', async () => {
    server.on('POST', '/messages', { status: 202, body: sent });
    const client = server.client();
    await client.messages.send(textMessage, { idempotencyKey: 'order-42' });
    await client.messages.send(textMessage);
    await client.messages.send(textMessage);
    const [given, first, second] = server.requests.map((request) => request.headers.get('idempotency-key'));
    expect(given).toBe('order-42');
    expect(first).not.toBe(second);
  });

  it('waits Retry-After on 429 rate_limited, then succeeds', async () => {
    server.on(
      'GET',
      '/status',
      errorReply('rate_limited', { details: { bucket: 'requests' }, headers: { 'retry-after': '7' } }),
      { body: { status: 'authenticated' } },
    );
    const { outcome, elapsed } = await withFakeTime(() =>
      server
        .client()
        .status.get()
        .then((s) => s),
    );
    expect(outcome.status).toBe('fulfilled');
    expect(server.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(7_000);
    expect(elapsed).toBeLessThan(8_000);
  });

  it('fails fast with RateLimitError when Retry-After exceeds maxRetryAfter', async () => {
    server.on(
      'GET',
      '/status',
      errorReply('rate_limited', {
        details: { bucket: 'templates' },
        headers: {
          'retry-after': '61',
          'ratelimit-limit': '10',
          'ratelimit-remaining': '0',
          'ratelimit-reset': '61',
        },
      }),
    );
    const error = await server
      .client({ maxRetryAfter: 60_000 })
      .status.get()
      .catch((caught: unknown) => caught);
    expect(server.requests).toHaveLength(1);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(isRateLimitError(error)).toBe(true);
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      bucket: 'templates',
      limit: 10,
      remaining: 0,
      reset: 61,
      retryAfter: 61_000,
    });
  });

  it('without Retry-After, waits for RateLimit-Reset on 429 and fails fast beyond the cap', async () => {
    const limited = (reset: string) => ({
      ...errorReply('rate_limited', { details: { bucket: 'sends' } }),
      headers: { 'ratelimit-limit': '30', 'ratelimit-remaining': '0', 'ratelimit-reset': reset },
    });
    server.on('GET', '/status', limited('3'), { body: { status: 'authenticated' } });
    const { outcome, elapsed } = await withFakeTime(() =>
      server
        .client()
        .status.get()
        .then((s) => s),
    );
    expect(outcome.status).toBe('fulfilled');
    expect(elapsed).toBeGreaterThanOrEqual(3_000);

    server.on('GET', '/status', limited('90'));
    const error = await server
      .client({ maxRetryAfter: 60_000 })
      .status.get()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(3);
  });

  it('never retries daily_send_limit_reached', async () => {
    server.on(
      'POST',
      '/messages',
      errorReply('daily_send_limit_reached', { headers: { 'retry-after': '3600' } }),
    );
    const error = await server
      .client({ maxRetryAfter: 10_000_000 })
      .messages.send(textMessage)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DailyLimitError);
    expect((error as DailyLimitError).retryAfter).toBe(3_600_000);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['validation_error', ValidationError],
    ['idempotency_key_reused', ConflictError],
    ['connection_inactive', ConflictError],
  ] as const)('never retries %s', async (code, errorClass) => {
    server.on('POST', '/messages', errorReply(code));
    const error = await server
      .client()
      .messages.send(textMessage)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errorClass);
    expect(server.requests).toHaveLength(1);
  });

  it('retries 409 idempotency_key_in_use', async () => {
    server.on('POST', '/messages', errorReply('idempotency_key_in_use'), { status: 202, body: sent });
    const { outcome } = await withFakeTime(() =>
      server
        .client()
        .messages.send(textMessage)
        .then((m) => m),
    );
    expect(outcome.status).toBe('fulfilled');
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a POST without Idempotency-Key on an ambiguous failure, only after 429', async () => {
    server.on('POST', '/sandbox/events', errorReply('internal_error'));
    const { outcome } = await withFakeTime(() =>
      server
        .client()
        .sandbox.events.create({ type: 'webhook.test' })
        .then((event) => event),
    );
    expect(rejectionOf(outcome)).toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);

    server.on(
      'POST',
      '/sandbox/events',
      errorReply('rate_limited', { details: { bucket: 'requests' }, headers: { 'retry-after': '1' } }),
      { status: 202, body: { id: 'evt_1', deliveries_queued: 0 } },
    );
    const retried = await withFakeTime(() =>
      server
        .client()
        .sandbox.events.create({ type: 'webhook.test' })
        .then((event) => event),
    );
    expect(retried.outcome.status).toBe('fulfilled');
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after maxRetries with the last error', async () => {
    server.on('GET', '/status', errorReply('internal_error'));
    const { outcome } = await withFakeTime(() =>
      server
        .client({ maxRetries: 3 })
        .status.get()
        .then((s) => s),
    );
    expect(rejectionOf(outcome)).toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(4);
  });

  it('retries network failures and then throws ConnectionError with the cause', async () => {
    server.on('GET', '/status', { networkError: true });
    const { outcome } = await withFakeTime(() =>
      server
        .client({ maxRetries: 1 })
        .status.get()
        .then((s) => s),
    );
    const error = rejectionOf(outcome);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause).toBeInstanceOf(Error);
    expect(server.requests).toHaveLength(2);
  });

  it('throws TimeoutError when the API does not answer within timeout', async () => {
    server.on('GET', '/status', { delayMs: 500, body: {} });
    const error = await server
      .client({ timeout: 30, maxRetries: 0 })
      .status.get()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as TimeoutError).cause).toBeDefined();
    // Logged errors must not reveal the key, not even through cause.request.
    expect(inspect(error, { depth: 10 })).not.toContain(TEST_API_KEY);
  });

  it('keeps the API key out of a logged ConnectionError', async () => {
    server.on('GET', '/status', { networkError: true });
    const error = await server
      .client({ maxRetries: 0 })
      .status.get()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(inspect(error, { depth: 10 })).not.toContain(TEST_API_KEY);
  });
});
