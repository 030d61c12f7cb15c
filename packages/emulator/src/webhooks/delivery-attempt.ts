import { ofetch } from 'ofetch';

/** What one HTTP attempt produced. */
export interface AttemptOutcome {
  /** The receiver's status, or `null` when no answer came. */
  statusCode: number | null;
  /** Why the attempt failed, or `null` for a 2xx. */
  error: string | null;
  durationMs: number;
}

/** One signed POST of a delivery body. */
export interface AttemptRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** Real milliseconds before the attempt counts as unanswered (spec 8: 15 s). */
  timeoutMs: number;
  /** Aborts the attempt (emulator shutting down). */
  signal: AbortSignal;
}

/**
 * Sends one attempt through ofetch: the body string as is, redirects never followed (a 3xx is
 * a failure), ofetch's own retries off (the delivery schedule is the retry). The timeout is
 * real time on purpose: the emulator clock moves virtual time, but a socket waits in real time.
 */
export async function sendDeliveryAttempt(request: AttemptRequest): Promise<AttemptOutcome> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await ofetch.raw(request.url, {
      method: 'POST',
      body: request.body,
      headers: request.headers,
      redirect: 'manual',
      retry: 0,
      ignoreResponseError: true,
      responseType: 'stream',
      signal: AbortSignal.any([timeout, request.signal]),
    });
    // The answer's body is not needed; dropping it frees the socket at once.
    await response.body?.cancel().catch(() => {});
    const statusCode = response.status;
    if (statusCode >= 200 && statusCode < 300) return { statusCode, error: null, durationMs: elapsed() };
    const error =
      statusCode >= 300 && statusCode < 400
        ? `redirect answered (HTTP ${statusCode}); redirects are not followed`
        : `receiver answered HTTP ${statusCode}`;
    return { statusCode, error, durationMs: elapsed() };
  } catch (failure) {
    const error = timeout.aborted
      ? `no answer within ${request.timeoutMs} ms`
      : request.signal.aborted
        ? 'aborted: the emulator is shutting down'
        : `no answer: ${describeNetworkError(failure)}`;
    return { statusCode: null, error, durationMs: elapsed() };
  }
}

// ofetch wraps fetch's TypeError, which wraps the socket error: the innermost says what happened.
function describeNetworkError(failure: unknown): string {
  let current: unknown = failure;
  let text = 'request failed';
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    text = typeof code === 'string' ? `${code} (${current.message})` : current.message;
    current = current.cause;
  }
  return text;
}
