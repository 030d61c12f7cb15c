import { errorCodeOf } from '../errors/_error-from-response';
import type { AttemptTelemetry, CallTelemetry } from './_call-telemetry';
import type { ClientSettings } from './_client-settings';
import type { AttemptError, FetchLoopOptions } from './_fetch-loop';
import { LOG_LEVELS, type LogLevel } from './logger';
import { readRateLimit } from './rate-limit';
import type { RequestEvent, RetryEvent } from './request-hooks';

interface Attempt {
  request: Request;
  started: number;
  response?: Response;
  telemetry?: AttemptTelemetry | undefined;
}

/**
 * The fetch-loop options that let one call be watched, and `end` to close it. `fetch`: the
 * client's, reporting the start of each attempt (`onRequest`) and the end of a 2xx one;
 * `retryDelay`: the policy, noting when the loop decides on a failure; `beforeRetry`: ends a
 * retried attempt with the wait the loop sat out.
 */
export interface CallObserver extends Pick<FetchLoopOptions, 'fetch' | 'retryDelay' | 'beforeRetry'> {
  /** Ends the call: closes the attempt still open (or writes why the call stopped), returns the last attempt. */
  end(error?: unknown): RequestEvent | undefined;
  /** Spans and metrics of the call, when it has a tracer or a meter; set before the first attempt. */
  telemetry?: CallTelemetry | undefined;
}

/**
 * Watches one call: a line and `onResponse` per attempt (at debug for one that is retried, at
 * info for the last, which is the call's line), `onRetry` with the reason and wait of a retry,
 * both when the loop starts the retry. The waits stay the retry policy's.
 * Lines and hooks carry method, path, status, ids, timing and rate limit: never the key or a body.
 */
export function observeCall(settings: ClientSettings, policy: FetchLoopOptions['retryDelay']): CallObserver {
  let attempts = 0;
  let failed = 0;
  let current: Attempt | undefined;
  let last: RequestEvent | undefined;

  const log = (level: Exclude<LogLevel, 'off'>, text: string) => {
    if (LOG_LEVELS.indexOf(level) <= LOG_LEVELS.indexOf(settings.logLevel)) {
      settings.logger[level](`parley: ${text}`);
    }
  };
  // Each hook gets its own copy; one that throws or rejects is reported, never left to the call
  // (the executor runs the hook at once, and a throw in it rejects like a rejection of its promise).
  const notify = (name: 'onRequest' | 'onResponse' | 'onRetry', event: RequestEvent) =>
    new Promise((resolve) => resolve(settings[name]?.({ ...event } as RetryEvent))).catch((error) =>
      log('error', `${name} hook threw: ${error?.message ?? error}`),
    );
  const eventOf = (
    { request, response, started }: Attempt,
    ended?: number,
    error?: string,
    delayMs?: number,
  ): RequestEvent => ({
    method: request.method,
    path: new URL(request.url).pathname,
    attempt: attempts,
    requestId: response?.headers.get('x-request-id') ?? undefined,
    idempotencyKey: request.headers.get('idempotency-key') ?? undefined,
    status: response?.status,
    durationMs: ended && ended - started,
    rateLimit: response ? readRateLimit(response.headers) : null,
    error,
    delayMs,
  });
  // Only the open attempt ends, once: a timed-out attempt's late answer changes nothing.
  const finish = (attempt: Attempt | undefined, error?: unknown, delayMs?: number, ended = Date.now()) => {
    if (attempt && attempt === current) {
      current = undefined;
      last = eventOf(attempt, ended, error ? reasonOf(error) : undefined, delayMs);
      attempt.telemetry?.end(last, ended);
      // The last attempt's line is the call's line: info shows one per call, debug every attempt.
      log(delayMs === undefined ? 'info' : 'debug', describe({ ...last, ...attempt.telemetry?.ids }));
      notify('onResponse', last);
      if (delayMs !== undefined) notify('onRetry', last);
    }
  };

  const observer: CallObserver = {
    async fetch(request) {
      const attempt: Attempt = { request, started: Date.now() };
      attempts += 1;
      current = attempt;
      failed = 0;
      // Before onRequest: the attempt's span sets the traceparent header it is sent with.
      attempt.telemetry = observer.telemetry?.attempt(request, attempts, attempt.started);
      notify('onRequest', eventOf(attempt));
      const response = await (settings.fetch ?? globalThis.fetch)(request);
      attempt.response = response;
      // A 2xx is final; a failure ends when the loop has decided whether to retry it.
      if (response.ok) finish(attempt);
      return response;
    },
    retryDelay(error, retry) {
      failed = Date.now();
      return policy(error, retry);
    },
    // The loop calls this after the wait, before the next attempt: the wait is the one it really took.
    beforeRetry: (error: AttemptError) => finish(current, error, Date.now() - failed, failed),
    end(error) {
      // Also the attempt whose retry was waiting when the signal fired: it ended when it failed.
      finish(current, error, undefined, failed || Date.now());
      observer.telemetry?.end(error, last);
      return last;
    },
  };
  return observer;
}

/** The API's error code, else the error's name (the loop's NetworkError is our ConnectionError). */
function reasonOf(error: unknown): string {
  const { code, data, name } = error as { code?: unknown; data?: unknown; name?: unknown };
  if (typeof code === 'string') return code;
  return errorCodeOf(data) ?? (name === 'NetworkError' ? 'ConnectionError' : String(name));
}

/**
 * `METHOD /path name=value …` (logfmt, with the hooks' field names), undefined fields left out;
 * with a tracer, the attempt span's `traceId` and `spanId` last.
 */
function describe({
  method,
  path,
  rateLimit,
  ...fields
}: RequestEvent & { traceId?: string; spanId?: string }): string {
  let text = `${method} ${path}`;
  for (const [name, value] of Object.entries(fields)) {
    // Strings quoted: an error code or a key from elsewhere cannot break the line or fake a field.
    if (value !== undefined) text += ` ${name}=${typeof value === 'string' ? JSON.stringify(value) : value}`;
  }
  return text;
}
