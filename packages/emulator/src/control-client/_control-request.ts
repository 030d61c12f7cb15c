import { readAtMost } from './_bounded-read';
import { ControlResponseError, EmulatorControlError } from './control-client-errors';

/** The most of a control answer read: a page of 100 deliveries with their attempts is far below. */
export const MAX_CONTROL_ANSWER_BYTES = 1024 * 1024;

/** A fetch that takes a `Request`: the global one, `emulator.fetch`, or a test's stand-in. */
export type ControlFetch = (request: Request) => Promise<Response>;

/** Where and how calls go: shared by every call of one client. */
export interface ControlTransport {
  /** The emulator's root URL, without a trailing slash. */
  root: string;
  fetch: ControlFetch;
  /** The most of an answer read. */
  maxAnswerBytes: number;
  /** Aborts every call (with the timeout of each). */
  signal: AbortSignal | undefined;
}

/** One control call. */
export interface ControlCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path under `/_emulator/`, its segments already encoded ({@link controlPath}). */
  path: string;
  /** Query parameters; undefined ones are left out. */
  query?: Record<string, string | number | undefined>;
  /** The JSON body of a POST, PUT or PATCH (`{}` when the call has none). */
  body?: unknown;
  timeoutMs: number;
}

/**
 * A path under `/_emulator/` whose every interpolated value is one encoded segment, so an id such
 * as `../faults` stays an id.
 *
 * @example
 * controlPath`endpoints/${id}/chaos`
 */
export function controlPath(parts: TemplateStringsArray, ...segments: string[]): string {
  return parts.reduce(
    (path, part, index) => `${path}${encodeURIComponent(String(segments[index - 1]))}${part}`,
  );
}

/**
 * Sends a call to `${root}/_emulator/…` and reads its answer, at most `maxAnswerBytes`: the JSON on 2xx,
 * `undefined` on 204; an {@link EmulatorControlError} for the spec's error body, a
 * {@link ControlResponseError} for anything that is no control answer. A failed fetch rejects as
 * fetch did.
 */
export async function sendControlCall(transport: ControlTransport, call: ControlCall) {
  const url = new URL(`${transport.root}/_emulator/${call.path}`);
  for (const [name, value] of Object.entries(call.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const init: RequestInit = {
    method: call.method,
    headers: { accept: 'application/json' },
    signal: transport.signal
      ? AbortSignal.any([transport.signal, AbortSignal.timeout(call.timeoutMs)])
      : AbortSignal.timeout(call.timeoutMs),
  };
  if (call.method !== 'GET' && call.method !== 'DELETE') {
    init.body = JSON.stringify(call.body ?? {});
    init.headers = { accept: 'application/json', 'content-type': 'application/json' };
  }
  const request = new Request(url, init);
  const response = await transport.fetch(request);
  const shown = `${call.method} ${url.origin}${url.pathname}`;
  let read: Awaited<ReturnType<typeof readAtMost>>;
  try {
    read = await readAtMost(response.body, transport.maxAnswerBytes, request);
  } catch (error) {
    throw new ControlResponseError('unreadable', response.status, shown, { cause: error });
  }
  if (read.cut)
    throw new ControlResponseError('too_large', response.status, shown, { limit: transport.maxAnswerBytes });
  if (response.status === 204) return undefined;
  const answer = parsedJson(read.bytes);
  if (answer === undefined) throw new ControlResponseError('not_json', response.status, shown);
  if (response.ok) return answer.value;
  const error = errorOf(answer.value);
  if (!error) throw new ControlResponseError('no_error_body', response.status, shown);
  const details = isRecord(error.details) ? error.details : {};
  const requestId =
    typeof error.request_id === 'string'
      ? error.request_id
      : (response.headers.get('x-request-id') ?? undefined);
  throw new EmulatorControlError(
    response.status,
    error.code as string,
    String(error.message),
    details,
    requestId,
  );
}

function parsedJson(bytes: Uint8Array): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch {
    return undefined;
  }
}

/** The spec's `{ error: { code, message, … } }`, if that is what the body is. */
function errorOf(body: unknown): Record<string, unknown> | undefined {
  const error = isRecord(body) ? body.error : undefined;
  return isRecord(error) && typeof error.code === 'string' && typeof error.message === 'string'
    ? error
    : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
