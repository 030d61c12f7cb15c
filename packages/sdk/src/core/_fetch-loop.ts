import { abortableSleep } from './_abortable';
import { MAX_ANSWER_BYTES, readJsonAnswer } from './_read-json-answer';

/**
 * Why one attempt failed, kept as is until the call ends (the retry policy and the log read it),
 * then mapped to the SDK's error: `HTTPError` (an error answer, its parsed body as `data`),
 * `TimeoutError` (no answer within `timeout`) or `NetworkError` (the fetch's error as `cause`).
 */
export class AttemptError extends Error {
  /** Retries made before the call gave up: set when the loop throws it. */
  retries = 0;

  constructor(
    override readonly name: 'HTTPError' | 'TimeoutError' | 'NetworkError',
    /** The request of the failed attempt (its method, URL and headers are the call's). */
    readonly request: Request,
    /** What went wrong, without the URL: the mapped error names the call. */
    message: string,
    readonly response?: Response,
    readonly data?: unknown,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** What the loop needs from its caller besides the request. */
export interface FetchLoopOptions {
  /** The fetch of one attempt (the call observer's, which wraps the client's). */
  fetch: (request: Request) => Promise<Response>;
  /** Milliseconds each attempt may wait for its answer's headers, and for an error answer's body. */
  timeout: number;
  /** The most retries; the policy is not asked once they are used up. */
  limit: number;
  /** The wait before retry `retry` (1 for the first) after `error`, or undefined to give up. */
  retryDelay: (error: AttemptError, retry: number) => number | undefined;
  /** Called after a retry's wait, just before the next attempt. */
  beforeRetry: (error: AttemptError) => void;
  /** The caller's: stops the fetch in flight and a retry's wait. */
  signal?: AbortSignal | undefined;
}

// What a fetch rejects with when no answer came, per runtime (Node's undici: `fetch failed` and
// `terminated`). Any other error, e.g. a bug in a custom fetch, is not the network's: never retried.
const NETWORK_MESSAGE =
  /^(Failed to fetch|fetch failed|terminated|network error|Network request failed|NetworkError when attempting|The Internet connection appears to be offline|Load failed| A network error|Network connection lost|error sending request for url)/;

// The longest a timer waits: past it, setTimeout fires after 1 ms, so a longer timeout or wait
// would end at once. 2^31 - 1 ms is 24.8 days, in effect no bound.
const MAX_TIMER = 2_147_483_647;

/**
 * Sends `init` to `url` until it gets a 2xx, which it resolves to with its body unread: each
 * attempt is a new Request (its body is a string, and a timed-out attempt's signal stays aborted)
 * with its own timeout, and each failure goes to `retryDelay`. Throws the last failure as an
 * {@link AttemptError}, any other error (an abort, a custom fetch's bug) as it came.
 */
export async function fetchWithRetries(
  url: string,
  init: RequestInit,
  { fetch, timeout, limit, retryDelay, beforeRetry, signal }: FetchLoopOptions,
): Promise<Response> {
  const attemptTimeout = Math.min(timeout, MAX_TIMER);
  for (let retries = 0; ; retries++) {
    const controller = new AbortController();
    const request = new Request(url, {
      ...init,
      // Without AbortSignal.any (Safari before 17.4) a timeout still ends the attempt, only
      // without cancelling its fetch.
      signal: signal ? (AbortSignal.any?.([signal, controller.signal]) ?? signal) : controller.signal,
    });
    // Bounded in time like the fetch: a stalled error body must not hold the call or its retry.
    const bounded = <Value>(work: Promise<Value>, timedOut: () => Value | Promise<Value>) =>
      new Promise<Value>((resolve, reject) => {
        const timer = setTimeout(() => {
          controller.abort();
          resolve(timedOut());
        }, attemptTimeout);
        work.then(resolve, reject).finally(() => clearTimeout(timer));
      });
    let error: AttemptError;
    try {
      const response = await bounded(fetch(request), () =>
        Promise.reject(new AttemptError('TimeoutError', request, `no answer within ${timeout} ms`)),
      );
      if (response.ok) return response;
      // The body says which error it is (its `error.code`); unreadable or not JSON, it says nothing.
      let data: unknown;
      await bounded(
        readJsonAnswer(response, MAX_ANSWER_BYTES).then(
          (value) => (data = value),
          () => undefined,
        ),
        () => undefined,
      );
      error = new AttemptError('HTTPError', request, `the API answered ${response.status}`, response, data);
    } catch (thrown) {
      const { name, message } = (thrown ?? {}) as Error;
      if (thrown instanceof AttemptError) error = thrown;
      else if (name === 'TypeError' && NETWORK_MESSAGE.test(message)) {
        error = new AttemptError('NetworkError', request, message, undefined, undefined, { cause: thrown });
      } else throw thrown;
    }
    const delay = retries < limit ? retryDelay(error, retries + 1) : undefined;
    if (delay === undefined) {
      error.retries = retries;
      throw error;
    }
    await abortableSleep(Math.min(delay, MAX_TIMER), signal);
    beforeRetry(error);
  }
}
