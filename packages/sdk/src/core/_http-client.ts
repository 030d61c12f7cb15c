import { errorFromResponse } from '../errors/_error-from-response';
import { ConnectionError, TimeoutError } from '../errors/connection-error';
import { SDK_VERSION } from '../version';
import { abortable, throwIfAborted } from './_abortable';
import { observeCall } from './_call-observer';
import type { ClientSettings } from './_client-settings';
import { AttemptError, fetchWithRetries } from './_fetch-loop';
import { applyHeaders } from './_headers';
import { readJsonAnswer } from './_read-json-answer';
import { retryPolicy } from './_retry-policy';
import { APIPromise, type APIResponse } from './api-promise';
import { resolveLimits } from './client-options';
import type { RequestHeaders, RequestOptions } from './request-options';

/**
 * What a resource puts on the wire: `method` (GET when absent), `searchParams` (those undefined
 * left out), a `json` body, and `headers` of its own (a send's Idempotency-Key), under the caller's.
 */
export interface HttpRequest {
  method?: 'get' | 'post';
  searchParams?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  headers?: RequestHeaders;
}

/** The HTTP layer every resource calls through: the fetch loop with our headers, retries, errors and log. */
export class HttpClient {
  readonly #settings: ClientSettings;
  readonly #headers: Headers;

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
    const call = observeCall(settings, retryPolicy(settings.maxRetryAfter));
    try {
      const input = typeof path === 'function' ? path() : path;
      const method = (request.method ?? 'get').toUpperCase();
      const tracer = options.tracer ?? settings.tracer;
      const meter = options.meter ?? settings.meter;
      // Imported only here: an app that neither traces nor meters never loads it.
      if (tracer || meter) {
        const { callTelemetry } = await import('./_call-telemetry');
        call.telemetry = callTelemetry({ tracer, meter }, method, settings.baseUrl, input);
      }
      // The base's path is kept: `status` under `http://host/v1/` is `/v1/status`, not `/status`.
      const url = new URL(`${settings.baseUrl.replace(/\/+$/, '')}/${input.replace(/^\/+/, '')}`);
      for (const [name, value] of Object.entries(request.searchParams ?? {})) {
        if (value !== undefined) url.searchParams.append(name, String(value));
      }
      const headers = applyHeaders(new Headers(this.#headers), request.headers, options.headers);
      let body: string | null = null;
      if (request.json !== undefined) {
        body = JSON.stringify(request.json);
        if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      }
      // `abortable`: the caller is released the moment the signal fires, even from a fetch
      // that ignores it or a retry's wait.
      const { response, data } = await abortable(
        (async () => {
          const response = await fetchWithRetries(
            url.href,
            { method, headers, body },
            { ...call, timeout, limit: maxRetries, signal },
          );
          return { response, data: (await readJsonAnswer(response)) as Data };
        })(),
        signal,
      );
      const { requestId, rateLimit } = call.end()!;
      return { data, requestId, rateLimit, response };
    } catch (error) {
      // An abort is already an APIUserAbortError: `abortable` settles first, in the abort event.
      // Any other error than an attempt's (a custom fetch's bug) is the caller's to see as it is.
      const mapped = error instanceof AttemptError ? mapError(error) : error;
      call.end(mapped);
      throw mapped;
    }
  }
}

/** The SDK's error for the failure a call gave up on, naming the call and its attempts. */
function mapError(error: AttemptError): Error {
  const { request, response, retries, name } = error;
  const attempts = retries > 0 ? ` after ${retries + 1} attempts` : '';
  const target = `${request.method} ${new URL(request.url).pathname}`;
  // The request is finished: drop the key from it, since the mapped error keeps the failure (and
  // its request) as `cause`, and logging an error (util.inspect) would print its headers.
  request.headers.delete('authorization');
  if (response) return errorFromResponse(response, error.data);
  return name === 'TimeoutError'
    ? new TimeoutError(`${target} timed out${attempts}`, { cause: error })
    : new ConnectionError(`${target} could not reach the API${attempts}: ${error.message}`, {
        cause: error,
      });
}
