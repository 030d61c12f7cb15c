import { describe, expect, test } from 'vitest';
import { testEmulator } from '../_testing/test-emulator';

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
});
