import ky, {
  type Hooks,
  isHTTPError,
  isNetworkError,
  isTimeoutError,
  type KyInstance,
  type Options,
} from 'ky';
import { errorFromResponse } from '../errors/_error-from-response';
import { ConnectionError, TimeoutError } from '../errors/connection-error';
import { SDK_VERSION } from '../version';
import { abortable, throwIfAborted } from './_abortable';
import { observeCall } from './_call-observer';
import type { ClientSettings } from './_client-settings';
import { applyHeaders } from './_headers';
import { readJsonAnswer } from './_read-json-answer';
import { retryPolicy } from './_retry-policy';
import { APIPromise, type APIResponse } from './api-promise';
import { resolveLimits } from './client-options';
import type { RequestHeaders, RequestOptions } from './request-options';

/**
 * What a resource puts on the wire, in ky's words: `method` (GET when absent), `searchParams`,
 * `json`, and `headers` of its own (a send's Idempotency-Key), under the caller's.
 */
export type HttpRequest = Pick<Options, 'method' | 'searchParams' | 'json'> & { headers?: RequestHeaders };

/** The HTTP layer every resource calls through: ky with our headers, retries, errors and log. */
export class HttpClient {
  readonly #settings: ClientSettings;
  readonly #headers: Headers;
  readonly #ky: KyInstance;

  constructor(settings: ClientSettings) {
    this.#settings = settings;
    this.#headers = applyHeaders(
      new Headers({
        authorization: `Bearer ${settings.apiKey}`,
        accept: 'application/json',
        'user-agent': `parley-sdk-js/${SDK_VERSION}`,
      }),
      settings.defaultHeaders,
    );
    this.#ky = ky.create({ prefix: settings.baseUrl, hooks: { beforeError: [mapError] } });
  }

  /**
   * Sends the request to `path` under the base; the promise resolves to the parsed JSON body.
   * `options` are the caller's per-call ones. A function path is evaluated inside the promise,
   * so a bad argument (e.g. an empty id) rejects, not throws.
   */
  request<Data>(
    path: string | (() => string),
    request: HttpRequest = {},
    options: RequestOptions = {},
  ): APIPromise<Data> {
    return new APIPromise(this.#exchange<Data>(path, request, options));
  }

  async #exchange<Data>(
    path: string | (() => string),
    request: HttpRequest,
    options: RequestOptions,
  ): Promise<APIResponse<Data>> {
    const { signal } = options;
    throwIfAborted(signal);
    const settings = this.#settings;
    const { timeout, maxRetries } = resolveLimits({
      ...settings,
      timeout: options.timeout ?? settings.timeout,
      maxRetries: options.maxRetries ?? settings.maxRetries,
    });
    const call = observeCall(settings, retryPolicy(maxRetries, settings.maxRetryAfter));
    try {
      const input = typeof path === 'function' ? path() : path;
      const tracer = options.tracer ?? settings.tracer;
      const meter = options.meter ?? settings.meter;
      // Imported only here: an app that neither traces nor meters never loads it.
      if (tracer || meter) {
        const { callTelemetry } = await import('./_call-telemetry');
        call.telemetry = callTelemetry(
          { tracer, meter },
          (request.method ?? 'get').toUpperCase(),
          settings.baseUrl,
          input,
        );
      }
      // `abortable`: the caller is released the moment the signal fires, even from a fetch
      // that ignores it or a retry's wait.
      const { response, data } = await abortable(
        (async () => {
          const response = await this.#ky(input, {
            ...request,
            headers: applyHeaders(new Headers(this.#headers), request.headers, options.headers),
            ...call.options,
            timeout,
            signal: signal as AbortSignal,
          });
          return { response, data: (await readJsonAnswer(response)) as Data };
        })(),
        signal,
      );
      const { requestId, rateLimit } = call.end()!;
      return { data, requestId, rateLimit, response };
    } catch (error) {
      // An abort is already an APIUserAbortError: `abortable` settles first, in the abort event.
      call.end(error);
      throw error;
    }
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
