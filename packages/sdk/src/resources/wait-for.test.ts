import { describe, expect, it } from 'vitest';
import { rejectionOf, withFakeTime } from '../_test/fake-time';
import { errorReply, useTestServer } from '../_test/test-server';
import { NotFoundError } from '../errors/api-error';
import { ConfigurationError } from '../errors/configuration-error';
import { MessageFailedError, WaitForTimeoutError } from '../errors/wait-errors';
import type { MessageStatus } from '../wire/message';

const server = useTestServer();
const id = '5b0c8a3e-0000-4000-8000-000000000001';

function message(status: MessageStatus, error: { code: string; message: string } | null = null) {
  return { id, object: 'message', status, error };
}

describe('messages.waitFor', () => {
  it('polls until the wanted status and returns the message', async () => {
    server.on(
      'GET',
      `/messages/${id}`,
      { body: message('queued') },
      { body: message('sent') },
      { body: message('delivered') },
    );
    const { outcome, elapsed } = await withFakeTime(() =>
      server.client().messages.waitFor(id, { until: 'delivered', timeout: 60_000, pollInterval: 2_000 }),
    );
    expect(outcome).toMatchObject({ status: 'fulfilled', value: { status: 'delivered' } });
    expect(server.requests).toHaveLength(3);
    expect(elapsed).toBeGreaterThanOrEqual(4_000);
  });

  it('returns a message already past the wanted status', async () => {
    server.on('GET', `/messages/${id}`, { body: message('read') });
    const result = await server.client().messages.waitFor(id, { until: 'sent' });
    expect(result.status).toBe('read');
    expect(server.requests).toHaveLength(1);
  });

  it('throws MessageFailedError carrying the message on failed', async () => {
    server.on('GET', `/messages/${id}`, {
      body: message('failed', { code: 'recipient_unreachable', message: 'No route' }),
    });
    const error = await server
      .client()
      .messages.waitFor(id, { until: 'delivered' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MessageFailedError);
    expect((error as MessageFailedError).failedMessage.error?.code).toBe('recipient_unreachable');
    expect((error as Error).message).toContain('recipient_unreachable');
  });

  it('throws WaitForTimeoutError with the last status seen', async () => {
    server.on('GET', `/messages/${id}`, { body: message('sent') });
    const { outcome, elapsed } = await withFakeTime(() =>
      server.client().messages.waitFor(id, { until: 'delivered', timeout: 5_000, pollInterval: 1_000 }),
    );
    const error = rejectionOf(outcome);
    expect(error).toBeInstanceOf(WaitForTimeoutError);
    expect((error as WaitForTimeoutError).lastSeen?.status).toBe('sent');
    expect((error as Error).message).toMatch(/still sent/);
    expect(elapsed).toBeLessThan(6_000);
  });

  it('slows down when the rate-limit window runs out', async () => {
    server.on(
      'GET',
      `/messages/${id}`,
      {
        body: message('queued'),
        headers: { 'ratelimit-limit': '60', 'ratelimit-remaining': '0', 'ratelimit-reset': '30' },
      },
      { body: message('delivered') },
    );
    const { outcome, elapsed } = await withFakeTime(
      () => server.client().messages.waitFor(id, { until: 'delivered', timeout: 120_000, pollInterval: 100 }),
      500,
    );
    expect(outcome.status).toBe('fulfilled');
    expect(server.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(30_000);
  });

  it('waits out a 429 it could not retry and goes on polling', async () => {
    server.on(
      'GET',
      `/messages/${id}`,
      errorReply('rate_limited', { details: { bucket: 'requests' }, headers: { 'retry-after': '20' } }),
      { body: message('delivered') },
    );
    const { outcome, elapsed } = await withFakeTime(
      () =>
        server.client({ maxRetryAfter: 5_000 }).messages.waitFor(id, { until: 'delivered', timeout: 60_000 }),
      500,
    );
    expect(outcome.status).toBe('fulfilled');
    expect(elapsed).toBeGreaterThanOrEqual(20_000);
  });

  it('passes other API errors through and refuses an unknown status', async () => {
    server.on('GET', `/messages/${id}`, errorReply('not_found'));
    await expect(server.client().messages.waitFor(id, { until: 'delivered' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(server.client().messages.waitFor(id, { until: 'failed' as 'sent' })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
  });
});
