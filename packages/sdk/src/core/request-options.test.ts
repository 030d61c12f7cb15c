import { afterEach, describe, expect, it, vi } from 'vitest';
import { withFakeTime } from '../_test/fake-time';
import { errorReply, TEST_API_KEY, TEST_BASE_URL, useTestServer } from '../_test/test-server';
import { Parley } from '../client';
import { InternalServerError } from '../errors/api-error';
import { ConfigurationError } from '../errors/configuration-error';
import { TimeoutError } from '../errors/connection-error';
import { SDK_VERSION } from '../version';
import type { ParleyOptions } from './client-options';

const server = useTestServer();
const textMessage = {
  type: 'text',
  connection_id: 'c0ffee00-0000-4000-8000-000000000001',
  to: '+33612345678',
  text: 'Bonjour',
} as const;

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * A client whose fetch keeps the headers of every request it is handed, as plain records: what
 * the SDK sends, before the runtime's fetch adds its own defaults (undici: `accept: *\/*`, …).
 */
function capturingClient(options: ParleyOptions) {
  const sent: Record<string, string>[] = [];
  const client = server.client({
    ...options,
    fetch: (input, init) => {
      const request = new Request(input, init);
      sent.push(Object.fromEntries(request.headers));
      return fetch(request);
    },
  });
  return { client, sent };
}

describe('per-call timeout and retries', () => {
  it('a shorter timeout and no retries for one call, the client unchanged for the next', async () => {
    server.on('GET', '/status', { delayMs: 300, body: {} });
    const client = server.client({ timeout: 5_000, maxRetries: 2 });
    const error = await client.status.get({ timeout: 30, maxRetries: 0 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(1);
    expect(await client.status.get()).toEqual({});
    expect(server.requests).toHaveLength(2);
  });

  it('a longer timeout than the client one', async () => {
    server.on('GET', '/status', { delayMs: 100, body: { ok: true } });
    const client = server.client({ timeout: 20, maxRetries: 0 });
    await expect(client.status.get()).rejects.toBeInstanceOf(TimeoutError);
    expect(await client.status.get({ timeout: 2_000 })).toEqual({ ok: true });
  });

  it.each([
    [0, 3, 4],
    [3, 0, 1],
  ])(
    'client maxRetries %d, call maxRetries %d: %d attempts',
    async (clientRetries, callRetries, attempts) => {
      server.on('POST', '/messages', errorReply('internal_error'));
      const { outcome } = await withFakeTime(() =>
        server
          .client({ maxRetries: clientRetries })
          .messages.send(textMessage, { maxRetries: callRetries })
          .then((message) => message),
      );
      expect(outcome).toMatchObject({ status: 'rejected', reason: expect.any(InternalServerError) });
      expect(server.requests).toHaveLength(attempts);
    },
  );

  it.each([
    ['timeout 0', { timeout: 0 }, '`timeout` must be an integer ≥ 1'],
    ['timeout 1.5', { timeout: 1.5 }, '`timeout` must be an integer ≥ 1'],
    ['timeout NaN', { timeout: Number.NaN }, '`timeout` must be an integer ≥ 1'],
    ['maxRetries -1', { maxRetries: -1 }, '`maxRetries` must be an integer ≥ 0'],
    ['maxRetries 0.5', { maxRetries: 0.5 }, '`maxRetries` must be an integer ≥ 0'],
  ])('rejects %s with a ConfigurationError, sending nothing', async (_, options, message) => {
    const error = await server
      .client()
      .status.get(options)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toBe(message);
    expect(server.requests).toEqual([]);
  });
});

describe('headers', () => {
  const sdkHeaders = {
    accept: 'application/json',
    authorization: `Bearer ${TEST_API_KEY}`,
    'user-agent': `parley-sdk-js/${SDK_VERSION}`,
  };

  it('sends defaultHeaders over the SDK ones, and per-call headers over both', async () => {
    server.on('GET', '/status', { body: {} });
    const { client, sent } = capturingClient({
      defaultHeaders: { 'X-Tenant': 'acme', 'User-Agent': 'shop/2' },
    });
    await client.status.get();
    await client.status.get({ headers: { 'x-tenant': 'globex', 'X-Trace': 't-1', 'X-Unset': undefined } });
    expect(sent).toEqual([
      { ...sdkHeaders, 'user-agent': 'shop/2', 'x-tenant': 'acme' },
      { ...sdkHeaders, 'user-agent': 'shop/2', 'x-tenant': 'globex', 'x-trace': 't-1' },
    ]);
  });

  it('removes a default header with null, per client or per call', async () => {
    server.on('GET', '/status', { body: {} });
    const { client, sent } = capturingClient({ defaultHeaders: { 'User-Agent': null, 'X-Tenant': 'acme' } });
    await client.status.get({ headers: { 'X-TENANT': null, Accept: null } });
    await client.status.get();
    expect(sent).toEqual([
      { authorization: sdkHeaders.authorization },
      { authorization: sdkHeaders.authorization, accept: sdkHeaders.accept, 'x-tenant': 'acme' },
    ]);
  });

  it('lets a per-call Idempotency-Key header choose the key of a send, the same on every attempt', async () => {
    server.on('POST', '/messages', errorReply('internal_error'), { status: 202, body: {} });
    await withFakeTime(() =>
      server
        .client()
        .messages.send(textMessage, { headers: { 'Idempotency-Key': 'from-header' } })
        .then(() => undefined),
    );
    expect(server.requests.map((request) => request.headers.get('idempotency-key'))).toEqual([
      'from-header',
      'from-header',
    ]);
  });

  it.each(['Authorization', 'authorization', 'Idempotency-Key', 'IDEMPOTENCY-KEY'])(
    'refuses to remove %s, sending nothing',
    async (name) => {
      const error = await server
        .client()
        .messages.send(textMessage, { headers: { [name]: null } })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toBe(`The ${name} header cannot be removed`);
      expect(server.requests).toEqual([]);
    },
  );

  it('refuses a defaultHeaders that removes Authorization when the client is made', () => {
    expect(
      () =>
        new Parley({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, defaultHeaders: { Authorization: null } }),
    ).toThrow(ConfigurationError);
  });
});
