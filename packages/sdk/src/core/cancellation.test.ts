import { afterEach, describe, expect, it, vi } from 'vitest';
import { rejectionOf, withFakeTime } from '../_test/fake-time';
import { errorReply, useTestServer } from '../_test/test-server';
import { APIUserAbortError } from '../errors/abort-error';

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

/** A signal that fires after `milliseconds` of (fake) time, with a reason of its own. */
function abortAfter(milliseconds: number) {
  const controller = new AbortController();
  const reason = new Error('user stopped');
  setTimeout(() => controller.abort(reason), milliseconds);
  return { signal: controller.signal, reason };
}

/** The call's rejection, checked to be an APIUserAbortError caused by `reason`. */
function abortedBy(outcome: PromiseSettledResult<unknown>, reason: unknown) {
  const error = rejectionOf(outcome);
  expect(error).toBeInstanceOf(APIUserAbortError);
  expect((error as Error).cause).toBe(reason);
}

describe('a per-call signal', () => {
  it('sends nothing when it fired before the call', async () => {
    const controller = new AbortController();
    const reason = new Error('too late');
    controller.abort(reason);
    const onRequest = vi.fn();
    const outcome = await server
      .client({ onRequest })
      .messages.send(textMessage, { signal: controller.signal })
      .then(
        (value) => ({ status: 'fulfilled' as const, value }),
        (error: unknown) => ({ status: 'rejected' as const, reason: error }),
      );
    abortedBy(outcome, reason);
    expect(server.requests).toEqual([]);
    expect(onRequest).not.toHaveBeenCalled();
  });

  it('stops a request in flight at once and cancels the fetch', async () => {
    server.on('GET', '/status', { delayMs: 30_000, body: {} });
    const fetched: Request[] = [];
    const client = server.client({
      fetch: (input, init) => {
        const request = new Request(input, init);
        fetched.push(request);
        return fetch(request);
      },
    });
    let reason: unknown;
    const { outcome, elapsed } = await withFakeTime(() => {
      const abort = abortAfter(200);
      reason = abort.reason;
      return client.status.get({ signal: abort.signal });
    });
    abortedBy(outcome, reason);
    expect(elapsed).toBeGreaterThanOrEqual(200);
    expect(elapsed).toBeLessThan(300);
    expect(fetched).toHaveLength(1);
    expect(fetched[0]?.signal.aborted).toBe(true);
  });

  it('stops at once even with a fetch that ignores it', async () => {
    let release: (response: Response) => void = () => {};
    const client = server.client({ fetch: () => new Promise<Response>((resolve) => (release = resolve)) });
    const controller = new AbortController();
    const call = client.status.get({ signal: controller.signal });
    await Promise.resolve();
    controller.abort('enough');
    await expect(call).rejects.toMatchObject({ name: 'APIUserAbortError', cause: 'enough' });
    release(Response.json({}));
  });

  it('stops a back-off wait at once, and no further attempt is made', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    server.on('POST', '/messages', errorReply('internal_error'));
    const onRequest = vi.fn();
    let reason: unknown;
    // The first back-off is 250 ms: the abort at 100 ms lands inside it. Time then runs on for
    // 10 s, in which a retry that ignored the abort would have shown up.
    const { outcome } = await withFakeTime(async () => {
      const abort = abortAfter(100);
      reason = abort.reason;
      const error = await server
        .client({ onRequest })
        .messages.send(textMessage, { signal: abort.signal })
        .catch((caught: unknown) => caught);
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      return error;
    });
    expect(outcome).toMatchObject({
      status: 'fulfilled',
      value: { name: 'APIUserAbortError', cause: reason },
    });
    expect(server.requests).toHaveLength(1);
    expect(onRequest).toHaveBeenCalledOnce();
  });

  it('stops a Retry-After wait at once', async () => {
    server.on('GET', '/status', errorReply('rate_limited', { headers: { 'retry-after': '30' } }));
    let reason: unknown;
    const { outcome, elapsed } = await withFakeTime(() => {
      const abort = abortAfter(1_000);
      reason = abort.reason;
      return server.client().status.get({ signal: abort.signal });
    });
    abortedBy(outcome, reason);
    expect(elapsed).toBeLessThan(1_200);
    expect(server.requests).toHaveLength(1);
  });

  it('is never retried when its reason is a TimeoutError, as AbortSignal.timeout() gives', async () => {
    // The reason a real AbortSignal.timeout() fires with, given once the server holds the request: a
    // 20 ms timer could fire before a loaded machine got the request there, and nothing be sent.
    const timedOut = AbortSignal.timeout(0);
    await new Promise((resolve) => timedOut.addEventListener('abort', resolve, { once: true }));
    const controller = new AbortController();
    server.on('GET', '/connections', () => {
      controller.abort(timedOut.reason);
      return { delayMs: 5_000, body: {} };
    });
    const onRetry = vi.fn();
    const error = await server
      .client({ onRetry, maxRetries: 3 })
      .connections.list({}, { signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(((error as Error).cause as DOMException).name).toBe('TimeoutError');
    expect(server.requests).toHaveLength(1);
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('also stops the later pages of a list', async () => {
    server.on('GET', '/connections', (request) => ({
      body: {
        object: 'list',
        data: [{ id: request.url.searchParams.get('cursor') ?? 'first' }],
        has_more: true,
        next_cursor: 'next',
      },
    }));
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await (async () => {
      for await (const connection of server.client().connections.list({}, { signal: controller.signal })) {
        seen.push(connection.id);
        controller.abort('stop paging');
      }
    })().catch((caught: unknown) => caught);
    expect(seen).toEqual(['first']);
    expect(error).toMatchObject({ name: 'APIUserAbortError', cause: 'stop paging' });
    expect(server.requests).toHaveLength(1);
  });
});
