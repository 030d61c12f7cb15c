import ky, {
  type Hooks,
  isHTTPError,
  isNetworkError,
  isTimeoutError,
  type KyInstance,
  type Options,
} from 'ky';
import { errorFromResponse } from '../errors/_error-from-response';
import { APIUserAbortError } from '../errors/abort-error';
import { ConnectionError, TimeoutError } from '../errors/connection-error';
import { SDK_VERSION } from '../version';
import { retryPolicy } from './_retry-policy';
import { APIPromise, type APIResponse } from './api-promise';
import type { ResolvedOptions } from './client-options';
import { readRateLimit } from './rate-limit';

/**
 * What goes with a call, in ky's words: `method` (GET when absent), `searchParams`, `json`,
 * `headers`, and a `signal` that cancels it (also during a retry's wait).
 */
export type RequestOptions = Pick<Options, 'method' | 'searchParams' | 'json' | 'headers' | 'signal'>;

/** The HTTP layer every resource calls through: ky with our headers, retries and errors. */
export class HttpClient {
  readonly #ky: KyInstance;

  constructor(options: ResolvedOptions) {
    this.#ky = ky.create({
      prefix: options.baseUrl,
      timeout: options.timeout,
      retry: retryPolicy(options.maxRetries, options.maxRetryAfter),
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        accept: 'application/json',
        'user-agent': `parley-sdk-js/${SDK_VERSION}`,
      },
      hooks: { beforeError: [mapError] },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /**
   * Sends the request to `path` under the base; the promise resolves to the parsed JSON body.
   * A function path is evaluated inside the promise, so a bad argument (e.g. an empty id)
   * rejects, not throws.
   */
  request<Data>(path: string | (() => string), options?: RequestOptions): APIPromise<Data> {
    return new APIPromise(this.#exchange<Data>(path, options));
  }

  async #exchange<Data>(path: string | (() => string), options?: RequestOptions): Promise<APIResponse<Data>> {
    let response: Response;
    let data: Data;
    try {
      response = await this.#ky(typeof path === 'function' ? path() : path, options);
      data = (await response.json()) as Data;
    } catch (error) {
      // ky rethrows the signal's reason as it is; the caller gets one error kind for aborts.
      if (options?.signal?.aborted) throw new APIUserAbortError(options.signal.reason);
      throw error;
    }
    return {
      data,
      requestId: response.headers.get('x-request-id') ?? undefined,
      rateLimit: readRateLimit(response.headers),
      response,
    };
  }
}

const mapError: NonNullable<Hooks['beforeError']>[number] = ({ error, request, retryCount }) => {
  const attempts = retryCount > 0 ? ` after ${retryCount + 1} attempts` : '';
  const target = `${request.method} ${new URL(request.url).pathname}`;
  // The request is finished: drop the key from it, since the wrapped ky error keeps it as
  // `cause.request`, and logging an error (util.inspect) would print its headers.
  request.headers.delete('authorization');
  (error as { request?: Request }).request?.headers.delete('authorization');
  if (isHTTPError(error)) return errorFromResponse(error.response, error.data);
  if (isTimeoutError(error)) return new TimeoutError(`${target} timed out${attempts}`, { cause: error });
  if (isNetworkError(error)) {
    return new ConnectionError(`${target} could not reach the API${attempts}: ${error.message}`, {
      cause: error,
    });
  }
  return error;
};
