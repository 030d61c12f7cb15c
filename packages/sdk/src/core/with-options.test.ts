import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordingLogger } from '../_test/recording-logger';
import { TEST_API_KEY, TEST_BASE_URL, useTestServer } from '../_test/test-server';
import { Parley } from '../client';
import { ConfigurationError } from '../errors/configuration-error';
import { TimeoutError } from '../errors/connection-error';
import type { RequestHeaders } from './request-options';

const server = useTestServer();

afterEach(() => {
  vi.unstubAllEnvs();
});

/** The `x-tenant` header of every request the server saw. */
const tenants = () => server.requests.map((request) => request.headers.get('x-tenant'));

describe('parley.withOptions', () => {
  it('gives a client with other defaults and leaves the first one as it was', async () => {
    server.on('GET', '/status', { delayMs: 100, body: {} });
    const first = server.client({ timeout: 5_000, defaultHeaders: { 'X-Tenant': 'acme' } });
    const second = first.withOptions({
      timeout: 20,
      maxRetries: 0,
      defaultHeaders: { 'X-Tenant': 'globex' },
    });
    await expect(second.status.get()).rejects.toBeInstanceOf(TimeoutError);
    expect(await first.status.get()).toEqual({});
    expect(tenants()).toEqual(['globex', 'acme']);
  });

  it('keeps what it is not given: key, base URL, fetch, logger, hooks', async () => {
    server.on('GET', '/status', { body: {}, headers: { 'x-request-id': 'req_1' } });
    const { logger, lines } = recordingLogger();
    const onResponse = vi.fn();
    const second = server.client({ logLevel: 'info', logger, onResponse }).withOptions({ maxRetries: 0 });
    await second.status.get();
    expect(server.requests[0]?.headers.get('authorization')).toBe(`Bearer ${TEST_API_KEY}`);
    expect(lines).toEqual([
      expect.stringMatching(/^info parley: GET \/v1\/status attempt=1 requestId="req_1"/),
    ]);
    expect(onResponse).toHaveBeenCalledOnce();
  });

  it('shares nothing mutable: changing the objects either was made from changes neither', async () => {
    server.on('GET', '/status', { body: {} });
    const firstHeaders: RequestHeaders = { 'X-Tenant': 'acme' };
    const first = server.client({ defaultHeaders: firstHeaders });
    const secondHeaders: RequestHeaders = { 'X-Tenant': 'globex' };
    const second = first.withOptions({ defaultHeaders: secondHeaders });
    const third = first.withOptions({});
    firstHeaders['X-Tenant'] = 'changed';
    secondHeaders['X-Tenant'] = 'changed';
    await first.status.get();
    await second.status.get();
    await third.status.get();
    expect(tenants()).toEqual(['acme', 'globex', 'acme']);
  });

  it('keeps the key and level it resolved from the environment, whatever the environment does later', async () => {
    server.on('GET', '/status', { body: {} });
    vi.stubEnv('PARLEY_API_KEY', TEST_API_KEY);
    vi.stubEnv('PARLEY_LOG', 'debug');
    const { logger, lines } = recordingLogger();
    const first = new Parley({ baseUrl: TEST_BASE_URL, logger });
    vi.stubEnv('PARLEY_API_KEY', 'prl_live_ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ');
    vi.stubEnv('PARLEY_LOG', 'off');
    await first.withOptions({ timeout: 1_000 }).status.get();
    expect(server.requests[0]?.headers.get('authorization')).toBe(`Bearer ${TEST_API_KEY}`);
    expect(lines).toHaveLength(1);
  });

  it('checks what it is given like the constructor does', () => {
    const first = server.client();
    expect(() => first.withOptions({ timeout: -1 })).toThrow(ConfigurationError);
    expect(() => first.withOptions({ defaultHeaders: { Authorization: null } })).toThrow(ConfigurationError);
    expect(first.withOptions({})).toBeInstanceOf(Parley);
    expect(first.withOptions({})).not.toBe(first);
  });
});
