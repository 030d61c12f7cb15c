import { afterEach, describe, expect, it, vi } from 'vitest';
import { withFakeTime } from '../_test/fake-time';
import { recordingLogger } from '../_test/recording-logger';
import { errorReply, useTestServer } from '../_test/test-server';
import type { RequestEvent, RetryEvent } from './request-hooks';

const server = useTestServer();
const textMessage = {
  type: 'text',
  connection_id: 'c0ffee00-0000-4000-8000-000000000001',
  to: '+33612345678',
  text: 'Bonjour',
} as const;
const window = { limit: 60, remaining: 59, reset: 42 };

afterEach(() => {
  vi.restoreAllMocks();
});

/** Hooks that keep what they receive, the duration of each ended attempt as `durationMs: 'N'`. */
function recordingHooks() {
  const seen: { hook: string; event: RequestEvent | RetryEvent }[] = [];
  const record = (hook: string) => (event: RequestEvent) => {
    seen.push({
      hook,
      event: { ...event, durationMs: event.durationMs === undefined ? undefined : ('N' as never) },
    });
  };
  return {
    seen,
    hooks: { onRequest: record('onRequest'), onResponse: record('onResponse'), onRetry: record('onRetry') },
  };
}

const started = {
  method: 'POST',
  path: '/v1/messages',
  requestId: undefined,
  idempotencyKey: 'order-1',
  status: undefined,
  durationMs: undefined,
  rateLimit: null,
  error: undefined,
  delayMs: undefined,
};

describe('onRequest, onResponse, onRetry', () => {
  it('see every attempt of a retried send, in order, with status, ids, rate limit, reason and wait', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    server.on(
      'POST',
      '/messages',
      errorReply('rate_limited', { headers: { 'x-request-id': 'req_a', 'retry-after': '2' } }),
      { status: 202, body: { id: 'm1' }, headers: { 'x-request-id': 'req_b' } },
    );
    const { seen, hooks } = recordingHooks();
    const { outcome } = await withFakeTime(() =>
      server
        .client(hooks)
        .messages.send(textMessage, { idempotencyKey: 'order-1' })
        .then((message) => message),
    );
    expect(outcome.status).toBe('fulfilled');
    const failed = {
      ...started,
      attempt: 1,
      requestId: 'req_a',
      status: 429,
      durationMs: 'N',
      rateLimit: window,
      error: 'rate_limited',
      delayMs: 2_000,
    };
    expect(seen).toEqual([
      { hook: 'onRequest', event: { ...started, attempt: 1 } },
      { hook: 'onResponse', event: failed },
      { hook: 'onRetry', event: failed },
      { hook: 'onRequest', event: { ...started, attempt: 2 } },
      {
        hook: 'onResponse',
        event: {
          ...started,
          attempt: 2,
          requestId: 'req_b',
          status: 202,
          durationMs: 'N',
          rateLimit: window,
        },
      },
    ]);
  });

  it('report an attempt without an answer with no status and the error kind', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    server.on('GET', '/status', { networkError: true }, { delayMs: 500, body: {} });
    const { seen, hooks } = recordingHooks();
    await withFakeTime(() =>
      server
        .client({ ...hooks, maxRetries: 1, timeout: 200 })
        .status.get()
        .catch(() => undefined),
    );
    const noAnswer = {
      ...started,
      method: 'GET',
      path: '/v1/status',
      idempotencyKey: undefined,
      durationMs: 'N',
    };
    expect(seen.filter(({ hook }) => hook !== 'onRequest')).toEqual([
      { hook: 'onResponse', event: { ...noAnswer, attempt: 1, error: 'ConnectionError', delayMs: 250 } },
      { hook: 'onRetry', event: { ...noAnswer, attempt: 1, error: 'ConnectionError', delayMs: 250 } },
      { hook: 'onResponse', event: { ...noAnswer, attempt: 2, error: 'TimeoutError' } },
    ]);
  });

  it('never break the call: a hook that throws or rejects is reported at error level', async () => {
    server.on('GET', '/status', { body: { status: 'authenticated' } });
    const { logger, lines } = recordingLogger();
    const status = await server
      .client({
        logLevel: 'error',
        logger,
        onRequest: () => {
          throw new Error('tracer unavailable');
        },
        onResponse: async () => {
          throw new TypeError('histogram is full');
        },
      })
      .status.get();
    await new Promise((resolve) => setImmediate(resolve));
    expect(status).toEqual({ status: 'authenticated' });
    expect(lines).toEqual([
      'error parley: onRequest hook threw: tracer unavailable',
      'error parley: onResponse hook threw: histogram is full',
    ]);
  });

  it('give each hook its own copy of the event', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    server.on('GET', '/status', errorReply('internal_error'), { body: {} });
    const retried: RetryEvent[] = [];
    await withFakeTime(() =>
      server
        .client({
          onResponse: (event) => {
            event.status = 0;
            event.error = 'changed';
          },
          onRetry: (event) => retried.push(event),
        })
        .status.get()
        .then(() => undefined),
    );
    expect(retried).toMatchObject([{ status: 500, error: 'internal_error', delayMs: 250 }]);
  });
});
