import type { IncomingHttpHeaders } from 'node:http';
import { readAtMost } from '@parley/emulator/control';
import { type FetchResponse, ofetch } from 'ofetch';
import { innermostCause } from '../../client/innermost-cause';
import { ANSWER_READ_BYTES, answerExcerpt } from './_app-answer';

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
 * the emulator's schedule is the retry). Of the app's answer only a 4xx body is read, at most
 * {@link ANSWER_READ_BYTES}, within the same `timeoutMs` as the status; any other body is cancelled.
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
  // ofetch's own `timeout` stops at the headers: this signal also bounds the body's read.
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: FetchResponse<ReadableStream<Uint8Array>>;
  try {
    response = await ofetch.raw(url, {
      method: 'POST',
      body,
      headers: forwarded,
      redirect: 'manual',
      retry: 0,
      signal: timeout,
      ignoreResponseError: true,
      responseType: 'stream',
    });
  } catch (error) {
    return {
      status: null,
      error: timeout.aborted ? `no answer within ${timeoutMs / 1000} s` : innermostMessage(error),
      durationMs: performance.now() - started,
      body: null,
    };
  }
  const refused = response.status >= 400 && response.status < 500;
  const stream = response._data ?? null;
  let excerpt: string | null = null;
  if (refused) {
    // A body that fails mid-read (the timeout, a reset) leaves the status, without an excerpt.
    const read = await readAtMost(stream, ANSWER_READ_BYTES).catch(() => undefined);
    excerpt = read === undefined ? '' : answerExcerpt(read.bytes);
  } else {
    await stream?.cancel().catch(() => {});
  }
  return { status: response.status, error: null, durationMs: performance.now() - started, body: excerpt };
}

// ofetch wraps fetch's TypeError, which wraps the socket error: the innermost says what happened.
function innermostMessage(error: unknown): string {
  const { code, message } = innermostCause(error);
  return code ?? message ?? String(error);
}
