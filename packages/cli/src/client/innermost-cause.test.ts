import { describe, expect, test } from 'vitest';
import { closedPort } from '../_test/test-context';
import { innermostCause } from './innermost-cause';

const socketError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('innermostCause', () => {
  test('a real refused connection through fetch: the socket error code', async () => {
    const port = await closedPort();
    const failure = await fetch(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
    expect(innermostCause(failure)).toMatchObject({ code: 'ECONNREFUSED' });
  });

  test('the innermost code and message of a wrapped chain', () => {
    const socket = socketError('ENOTFOUND', 'getaddrinfo ENOTFOUND nowhere.test');
    const wrapped = new Error('request failed', { cause: new TypeError('fetch failed', { cause: socket }) });
    expect(innermostCause(wrapped)).toEqual({
      code: 'ENOTFOUND',
      message: 'getaddrinfo ENOTFOUND nowhere.test',
    });
  });

  test('a code on the way is kept when the innermost error has none', () => {
    const chain = socketError('ECONNRESET', 'reset');
    chain.cause = new Error('socket hang up');
    expect(innermostCause(chain)).toEqual({ code: 'ECONNRESET', message: 'socket hang up' });
  });

  test('no chain: the error itself; no error object: nothing', () => {
    expect(innermostCause(new Error('plain'))).toEqual({ code: undefined, message: 'plain' });
    expect(innermostCause('text')).toEqual({ code: undefined, message: undefined });
  });

  test('a cycle ends after 8 links', () => {
    const loop: Error & { cause?: unknown } = new Error('loop');
    loop.cause = loop;
    expect(innermostCause(loop).message).toBe('loop');
  });
});
