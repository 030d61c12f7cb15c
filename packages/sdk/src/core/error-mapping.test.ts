import { afterEach, describe, expect, it, vi } from 'vitest';
import { rejectionOf, withFakeTime } from '../_test/fake-time';
import { useTestServer } from '../_test/test-server';
import { APIError, InternalServerError } from '../errors/api-error';
import { ConnectionError, TimeoutError } from '../errors/connection-error';

// Exact classes, not `toBeInstanceOf`: a TimeoutError is also a ConnectionError, and every
// API error class is an APIError, so an inheritance check would let a wrong mapping pass.
const server = useTestServer();

afterEach(() => {
  vi.restoreAllMocks();
});

function classOf(error: unknown) {
  return Object.getPrototypeOf(error).constructor;
}

describe('errors without an answer', () => {
  it('a network failure is a ConnectionError (not a TimeoutError) naming the call and attempts', async () => {
    server.on('GET', '/status', { networkError: true });
    const { outcome } = await withFakeTime(() =>
      server
        .client({ maxRetries: 1 })
        .status.get()
        .then((status) => status),
    );
    const error = rejectionOf(outcome) as ConnectionError;
    expect(classOf(error)).toBe(ConnectionError);
    expect(error.name).toBe('ConnectionError');
    expect(error.message).toMatch(/^GET \/v1\/status could not reach the API after 2 attempts: \S/);
    expect((error.cause as Error).name).toBe('NetworkError');
  });

  it('says nothing of attempts when there was one', async () => {
    server.on('GET', '/status', { networkError: true });
    const error = (await server
      .client({ maxRetries: 0 })
      .status.get()
      .catch((caught: unknown) => caught)) as ConnectionError;
    expect(classOf(error)).toBe(ConnectionError);
    expect(error.message).toMatch(/^GET \/v1\/status could not reach the API: \S/);
  });

  it('a timeout is a TimeoutError naming the call and attempts', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    server.on('GET', '/status', { delayMs: 300, body: {} });
    const once = await server
      .client({ timeout: 20, maxRetries: 0 })
      .status.get()
      .catch((caught: unknown) => caught);
    expect(classOf(once)).toBe(TimeoutError);
    expect(once).toMatchObject({ name: 'TimeoutError', message: 'GET /v1/status timed out' });
    expect((once as TimeoutError).cause).toMatchObject({ name: 'TimeoutError' });
    const twice = await server
      .client({ timeout: 20, maxRetries: 1 })
      .status.get()
      .catch((caught: unknown) => caught);
    expect(twice).toMatchObject({
      name: 'TimeoutError',
      message: 'GET /v1/status timed out after 2 attempts',
    });
  });
});

describe('error answers by status', () => {
  it.each([418, 405, 422, 451])('an unknown %d is a plain APIError, not a server error', async (status) => {
    server.on('GET', '/status', { status, body: {} });
    const error = await server
      .client()
      .status.get()
      .catch((caught: unknown) => caught);
    expect(classOf(error)).toBe(APIError);
    expect(error).toMatchObject({ name: 'APIError', status, code: `http_${status}` });
    expect((error as APIError).message).toMatch(
      new RegExp(
        `^The API answered ${status} without an error body \\(${status} http_${status}, request req_`,
      ),
    );
  });

  it.each([500, 502, 503, 504, 599])('%d is an InternalServerError', async (status) => {
    server.on('GET', '/status', { status, body: 'upstream down' });
    const error = await server
      .client({ maxRetries: 0 })
      .status.get()
      .catch((caught: unknown) => caught);
    expect(classOf(error)).toBe(InternalServerError);
    expect(error).toMatchObject({ name: 'InternalServerError', status, code: `http_${status}`, details: {} });
  });
});
