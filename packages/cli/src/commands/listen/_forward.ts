import type { IncomingHttpHeaders } from 'node:http';
import { ofetch } from 'ofetch';
import { innermostCause } from '../../client/innermost-cause';
import { answerExcerpt } from './_app-answer';

/** What the user's app answered, or why it could not be reached. */
export interface ForwardResult {
  status: number | null;
  error: string | null;
  durationMs: number;
  /** The start of the app's answer on a 4xx (it says why the app refused), else null. */
  body: string | null;
}

// Headers about this hop, not the delivery: fetch sets its own.
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'expect',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

/**
 * Forwards one delivery to the user's app exactly as received: the raw body bytes and every
 * end-to-end header, through ofetch as the emulator sends (redirects not followed, no retries:
 * the emulator's schedule is the retry).
 */
export async function forwardDelivery(
  url: string,
  body: Uint8Array,
  headers: IncomingHttpHeaders,
  timeoutMs = 15_000,
): Promise<ForwardResult> {
  const forwarded = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) forwarded.append(name, item);
  }
  const started = performance.now();
  try {
    const response = await ofetch.raw(url, {
      method: 'POST',
      body,
      headers: forwarded,
      redirect: 'manual',
      retry: 0,
      timeout: timeoutMs,
      ignoreResponseError: true,
      responseType: 'arrayBuffer',
    });
    const refused = response.status >= 400 && response.status < 500;
    return {
      status: response.status,
      error: null,
      durationMs: performance.now() - started,
      body: refused ? answerExcerpt(new Uint8Array(response._data ?? new ArrayBuffer(0))) : null,
    };
  } catch (error) {
    return {
      status: null,
      error: innermostMessage(error),
      durationMs: performance.now() - started,
      body: null,
    };
  }
}

// ofetch wraps fetch's TypeError, which wraps the socket error: the innermost says what happened.
function innermostMessage(error: unknown): string {
  const { code, message } = innermostCause(error);
  return code ?? message ?? String(error);
}
