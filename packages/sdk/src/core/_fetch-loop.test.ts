import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIUserAbortError } from '../errors/abort-error';
import { AttemptError, type FetchLoopOptions, fetchWithRetries } from './_fetch-loop';

const url = 'http://127.0.0.1:9/v1/messages';
const init = { method: 'POST', headers: { 'idempotency-key': 'k1' }, body: '{"text":"hi"}' };

afterEach(() => {
  vi.useRealTimers();
});

/** Loop options around `fetch`: no retry unless `retryDelay` is given, every call recorded. */
function loop(fetch: (request: Request) => Promise<Response>, options: Partial<FetchLoopOptions> = {}) {
  const sent: Request[] = [];
  const asked: number[] = [];
  const retried: AttemptError[] = [];
  const settings: FetchLoopOptions = {
    fetch: (request) => {
      sent.push(request);
      return fetch(request);
    },
    timeout: 1_000,
    limit: 0,
    retryDelay: (_error, retry) => {
      asked.push(retry);
      return 0;
    },
    beforeRetry: (error) => void retried.push(error),
    ...options,
  };
  return { settings, sent, asked, retried };
}

/** A 200/500 answer whose body never ends (nor starts). */
const stalled = (status: number) =>
  new Response(new ReadableStream({ pull: () => new Promise(() => {}) }), { status });

describe('fetchWithRetries', () => {
  it('resolves to the first 2xx, body unread, after a new Request per attempt with the same method, headers and body', async () => {
    const answers = [new Response('{}', { status: 500 }), new Response('{"id":"m1"}', { status: 202 })];
    const { settings, sent, asked, retried } = loop(async () => answers.shift()!, { limit: 2 });
    const response = await fetchWithRetries(url, init, settings);
    expect(response.status).toBe(202);
    expect(response.bodyUsed).toBe(false);
    expect(sent).toHaveLength(2);
    expect(sent[0]).not.toBe(sent[1]);
    for (const request of sent) {
      expect([request.method, request.url, request.headers.get('idempotency-key')]).toEqual([
        'POST',
        url,
        'k1',
      ]);
      expect(await request.text()).toBe('{"text":"hi"}');
    }
    expect(asked).toEqual([1]);
    expect(retried.map((error) => [error.name, error.response?.status])).toEqual([['HTTPError', 500]]);
  });

  it("keeps an error answer's JSON body as the failure's data, and no data for a body that is not JSON", async () => {
    const body = { error: { code: 'internal_error' } };
    const json = await fetchWithRetries(
      url,
      init,
      loop(async () => Response.json(body, { status: 500 })).settings,
    ).catch((error: unknown) => error);
    expect(json).toBeInstanceOf(AttemptError);
    expect(json).toMatchObject({ name: 'HTTPError', data: body, retries: 0 });
    const text = await fetchWithRetries(
      url,
      init,
      loop(async () => new Response('upstream down', { status: 502 })).settings,
    ).catch((error: unknown) => error);
    expect(text).toMatchObject({ name: 'HTTPError', data: undefined });
    expect((text as AttemptError).response?.status).toBe(502);
  });

  it('gives up an error body that stalls after `timeout`: no data, and the attempt is aborted', async () => {
    vi.useFakeTimers();
    const { settings, sent } = loop(async () => stalled(503), { timeout: 300 });
    const failing = fetchWithRetries(url, init, settings).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(299);
    expect(sent[0]!.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = (await failing) as AttemptError;
    expect(error).toMatchObject({ name: 'HTTPError', data: undefined });
    expect(error.response?.status).toBe(503);
    expect(sent[0]!.signal.aborted).toBe(true);
  });

  it('is a TimeoutError when no answer comes within `timeout`, and aborts the attempt', async () => {
    vi.useFakeTimers();
    const { settings, sent } = loop(() => new Promise<Response>(() => {}), { timeout: 300 });
    const failing = fetchWithRetries(url, init, settings).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(299);
    expect(sent[0]!.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await failing).toMatchObject({ name: 'TimeoutError', message: 'no answer within 300 ms' });
    expect(sent[0]!.signal.aborted).toBe(true);
  });

  it("retries a network failure as a NetworkError caused by fetch's error; any other error passes through, unasked", async () => {
    const lost = new TypeError('fetch failed');
    const network = loop(
      async () => {
        throw lost;
      },
      { limit: 1 },
    );
    const error = await fetchWithRetries(url, init, network.settings).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'NetworkError', message: 'fetch failed', cause: lost, retries: 1 });
    expect(network.asked).toEqual([1]);
    expect(network.sent).toHaveLength(2);

    for (const bug of [new TypeError('fetch is not a function'), new RangeError('fetch failed')]) {
      const buggy = loop(
        async () => {
          throw bug;
        },
        { limit: 1 },
      );
      expect(await fetchWithRetries(url, init, buggy.settings).catch((caught: unknown) => caught)).toBe(bug);
      expect(buggy.asked).toEqual([]);
      expect(buggy.sent).toHaveLength(1);
    }
  });

  it('asks the policy for retries 1 to `limit` only, and calls beforeRetry once the wait is over', async () => {
    vi.useFakeTimers();
    const waited: number[] = [];
    let failedAt = 0;
    const { settings, sent, asked } = loop(async () => new Response('', { status: 500 }), {
      limit: 2,
      retryDelay: (_error, retry) => {
        asked.push(retry);
        failedAt = Date.now();
        return 1_000 * retry;
      },
      beforeRetry: () => void waited.push(Date.now() - failedAt),
    });
    const failing = fetchWithRetries(url, init, settings).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(await failing).toMatchObject({ name: 'HTTPError', retries: 2 });
    expect(sent).toHaveLength(3);
    expect(asked).toEqual([1, 2]);
    expect(waited).toEqual([1_000, 2_000]);
  });

  it('gives up at once when the policy says so', async () => {
    const { settings, sent, retried } = loop(async () => new Response('', { status: 500 }), {
      limit: 5,
      retryDelay: () => undefined,
    });
    expect(await fetchWithRetries(url, init, settings).catch((error: unknown) => error)).toMatchObject({
      retries: 0,
    });
    expect(sent).toHaveLength(1);
    expect(retried).toEqual([]);
  });

  it("stops a retry's wait when the caller's signal fires, and sends nothing more", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const { settings, sent } = loop(async () => new Response('', { status: 500 }), {
      limit: 1,
      retryDelay: () => 10_000,
      signal: controller.signal,
    });
    const failing = fetchWithRetries(url, init, settings).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(5_000);
    controller.abort('enough');
    expect(await failing).toBeInstanceOf(APIUserAbortError);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.signal.aborted).toBe(true);
  });
});

describe('waits past what a timer holds', () => {
  // A timer over 2^31 - 1 ms fires after 1 ms: an attempt would time out at once, a retry not wait.
  it('a timeout over 2^31 - 1 ms waits for the answer instead of timing out at once', async () => {
    const late = () => new Promise<Response>((resolve) => setTimeout(() => resolve(new Response('{}')), 30));
    const { settings } = loop(late, { timeout: 3_000_000_000 });
    expect((await fetchWithRetries(url, init, settings)).status).toBe(200);
  });

  it('a retry wait over 2^31 - 1 ms still waits', async () => {
    const controller = new AbortController();
    const { settings, sent } = loop(async () => new Response('', { status: 500 }), {
      limit: 1,
      retryDelay: () => 3_000_000_000,
      signal: controller.signal,
    });
    const failing = fetchWithRetries(url, init, settings).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(sent).toHaveLength(1);
    controller.abort();
    expect(await failing).toBeInstanceOf(APIUserAbortError);
  });
});
