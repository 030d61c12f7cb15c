import { afterEach, describe, expect, it, vi } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { TEST_API_KEY, TEST_BASE_URL, useTestServer } from './_test/test-server';
import { Parley } from './client';
import { ConfigurationError } from './errors/configuration-error';
import { SDK_VERSION } from './version';
import type { SendMessageParams } from './wire/message';

const server = useTestServer();
const status = {
  status: 'authenticated',
  application_id: 'a',
  workspace_id: 'w',
  environment: 'sandbox',
  scopes: [],
  timestamp: '2026-10-14T09:30:00Z',
  capabilities: [],
  sandbox_external_calls: false,
};

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('configuration', () => {
  it('reads PARLEY_API_KEY and PARLEY_BASE_URL when options are absent', async () => {
    vi.stubEnv('PARLEY_API_KEY', TEST_API_KEY);
    vi.stubEnv('PARLEY_BASE_URL', TEST_BASE_URL);
    server.on('GET', '/status', { body: status });
    expect(await new Parley().status.get()).toEqual(status);
  });

  it('names the option and the variable when the key is missing', () => {
    vi.stubEnv('PARLEY_API_KEY', '');
    expect(() => new Parley({ baseUrl: TEST_BASE_URL })).toThrow(ConfigurationError);
    expect(() => new Parley({ baseUrl: TEST_BASE_URL })).toThrow(/`apiKey`.*PARLEY_API_KEY/);
  });

  it('names the option and the variable when the base URL is missing, inventing no host', () => {
    vi.stubEnv('PARLEY_BASE_URL', '');
    expect(() => new Parley({ apiKey: TEST_API_KEY })).toThrow(/`baseUrl`.*PARLEY_BASE_URL/);
  });

  it.each([
    'sk_test_0123456789abcdefghijABCDEFGHIJkl',
    'prl_sandbox_short',
    'prl_test_0123456789abcdefghijABCDEFGHIJkl',
    ` ${TEST_API_KEY}`,
    'prl_live_0123456789abcdefghij-BCDEFGHIJkl',
  ])('rejects the key %j early without echoing it', (apiKey) => {
    let caught: unknown;
    try {
      new Parley({ apiKey, baseUrl: TEST_BASE_URL });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigurationError);
    expect((caught as Error).message).toMatch(/prl_sandbox_.*prl_live_/);
    expect((caught as Error).message).not.toContain(apiKey.trim());
  });

  it('accepts sandbox and live keys', () => {
    expect(
      () => new Parley({ apiKey: TEST_API_KEY.replace('sandbox', 'live'), baseUrl: TEST_BASE_URL }),
    ).not.toThrow();
    expect(() => new Parley({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL })).not.toThrow();
  });

  it('strips trailing slashes from the base URL', async () => {
    server.on('GET', '/status', { body: status });
    await new Parley({ apiKey: TEST_API_KEY, baseUrl: `${TEST_BASE_URL}//` }).status.get();
    expect(server.requests[0]?.url.pathname).toBe('/v1/status');
  });

  it('rejects a base URL that is not absolute http(s)', () => {
    expect(() => new Parley({ apiKey: TEST_API_KEY, baseUrl: '127.0.0.1:4010/v1' })).toThrow(
      /absolute http\(s\) URL/,
    );
    for (const baseUrl of ['ftp://127.0.0.1/v1', 'http://', 'http:///v1']) {
      expect(() => new Parley({ apiKey: TEST_API_KEY, baseUrl })).toThrow(/absolute http\(s\) URL/);
    }
  });

  it('uses the given fetch', async () => {
    const fetch = vi.fn(async (input: string | URL | Request) => {
      const request = input instanceof Request ? input : new Request(input);
      return Response.json({ ...status, application_id: new URL(request.url).pathname });
    });
    const parley = new Parley({ apiKey: TEST_API_KEY, baseUrl: 'http://127.0.0.1:1/v1', fetch });
    expect((await parley.status.get()).application_id).toBe('/v1/status');
    expect(fetch).toHaveBeenCalledOnce();
  });
});

describe('requests', () => {
  it('send auth, user agent, JSON content type and the body as given', async () => {
    server.on('POST', '/messages', { status: 202, body: { id: 'm1' } });
    const params: SendMessageParams = {
      type: 'template',
      connection_id: 'c1',
      to: '+33612345678',
      template: { name: 'order_update', language: 'fr', variables: ['42'] },
      client_reference: 'order-42',
    };
    await server.client().messages.send(params);
    const [request] = server.requests;
    expect(request?.headers.get('authorization')).toBe(`Bearer ${TEST_API_KEY}`);
    expect(request?.headers.get('user-agent')).toBe(`parley-sdk-js/${SDK_VERSION}`);
    expect(request?.headers.get('content-type')).toMatch(/^application\/json/);
    expect(request?.body).toEqual(params);
  });

  it('keeps SDK_VERSION equal to the package version', () => {
    expect(SDK_VERSION).toBe(packageJson.version);
  });

  it('encodes path segments so an id cannot change the path', async () => {
    server.on('GET', '/messages/a%2F..%2Fstatus%3Fx', { body: { id: 'odd' } });
    const parley = server.client();
    expect((await parley.messages.get('a/../status?x')).id).toBe('odd');
    await expect(parley.messages.get('..')).rejects.toThrow(/other than \. or \.\./);
    await expect(parley.messages.get('')).rejects.toThrow(/non-empty/);
    expect(server.requests).toHaveLength(1);
  });

  it('exposes request id and rate-limit info through withResponse()', async () => {
    server.on('GET', '/connections/c1/templates', {
      body: { object: 'list', data: [], has_more: false, next_cursor: null },
      headers: {
        'x-request-id': 'req_0f',
        'ratelimit-limit': '10',
        'ratelimit-remaining': '3',
        'ratelimit-reset': '17',
      },
    });
    const { data, requestId, rateLimit, response } = await server
      .client()
      .connections.listTemplates('c1')
      .withResponse();
    expect(data.data).toEqual([]);
    expect(requestId).toBe('req_0f');
    expect(rateLimit).toEqual({ limit: 10, remaining: 3, reset: 17 });
    expect(response.status).toBe(200);
  });

  it('reports null rate-limit info when the headers are absent', async () => {
    const fetch = async () => Response.json(status);
    const parley = new Parley({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, fetch });
    const { rateLimit, requestId } = await parley.status.get().withResponse();
    expect(rateLimit).toBeNull();
    expect(requestId).toBeUndefined();
  });

  it('posts sandbox events with their type', async () => {
    server.on('POST', '/sandbox/events', {
      status: 202,
      body: { id: 'evt_1', type: 'webhook.test', deliveries_queued: 2 },
    });
    const result = await server.client().sandbox.events.create({ type: 'webhook.test' });
    expect(result.deliveries_queued).toBe(2);
    expect(server.requests[0]?.body).toEqual({ type: 'webhook.test' });
  });
});
