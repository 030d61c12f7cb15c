import { describe, expect, it } from 'vitest';
import { APIPromise, type APIResponse } from './api-promise';

const exchange: APIResponse<number> = {
  data: 7,
  requestId: 'req_1',
  rateLimit: null,
  response: new Response(),
};

describe('APIPromise', () => {
  it('resolves to the data, withResponse() to the whole exchange', async () => {
    const promise = new APIPromise(Promise.resolve(exchange));
    expect(await promise).toBe(7);
    expect(await promise.withResponse()).toBe(exchange);
  });

  it('passes a rejection to catch and runs finally either way', async () => {
    const failing = new APIPromise<number>(Promise.reject(new Error('down')));
    expect(await failing.catch((error: unknown) => (error as Error).message)).toBe('down');
    let ran = 0;
    expect(await new APIPromise(Promise.resolve(exchange)).finally(() => ran++)).toBe(7);
    await expect(new APIPromise<number>(Promise.reject(new Error('x'))).finally(() => ran++)).rejects.toThrow(
      'x',
    );
    expect(ran).toBe(2);
  });

  it('names itself APIPromise', () => {
    expect(Object.prototype.toString.call(new APIPromise(Promise.resolve(exchange)))).toBe(
      '[object APIPromise]',
    );
  });
});
