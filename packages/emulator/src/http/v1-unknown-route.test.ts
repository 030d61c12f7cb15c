import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';
import { type EmulatorServer, startEmulatorServer } from '../server/start-server';

const servers: EmulatorServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe('an unknown /v1 route', () => {
  test.each([
    ['GET', '/v1/nope'],
    ['DELETE', '/v1/messages'],
    ['PUT', '/v1/status'],
    ['POST', '/v1/connections'],
  ])(
    '%s %s with a key: 404 naming method and path, with RateLimit-* of the requests bucket',
    async (method, path) => {
      const { call } = testEmulator();
      const answer = await call(method, path);
      expect(answer.status).toBe(404);
      expect(answer.body.error).toMatchObject({
        code: 'not_found',
        message: `No route for ${method} ${path}.`,
        details: { method, path },
      });
      expect(answer.headers.get('ratelimit-limit')).toBe('60');
      expect(answer.headers.get('ratelimit-remaining')).toBe('59');
      expect(answer.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
    },
  );

  test('without a key it is a 401 like every /v1 call, without RateLimit-*', async () => {
    const { call } = testEmulator();
    const answer = await call('GET', '/v1/nope', { key: null });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('missing_api_key');
    expect(answer.headers.get('ratelimit-limit')).toBeNull();
  });

  test('TRACE /v1/status over a socket (fetch cannot send TRACE)', async () => {
    const server = await startEmulatorServer({ port: 0, clock: 'frozen' });
    servers.push(server);
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        const request = httpRequest(
          `${server.baseUrl}/status`,
          { method: 'TRACE', headers: { authorization: `Bearer ${server.sandboxKey}` } },
          (response) => {
            let body = '';
            response.on('data', (chunk) => {
              body += chunk;
            });
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
            );
          },
        );
        request.on('error', reject);
        request.end();
      },
    );
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body).error.message).toBe('No route for TRACE /v1/status.');
    expect(answer.headers['ratelimit-remaining']).toBe('59');
  });
});
