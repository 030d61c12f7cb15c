import { EXIT, ExitError } from '../exit-error';
import { type SseFrame, sseFrames } from './_sse-frames';

/**
 * One item of the emulator's activity feed (`GET /_emulator/stream`, docs/emulator.md): `kind`
 * says which fields follow. Kept loose on purpose: an emulator newer than this CLI may add kinds.
 */
export interface ActivityItem {
  seq: number;
  at: string;
  kind: string;
  application_ids: string[];
  [field: string]: unknown;
}

/** Where to follow the stream from, and what to tell about its connection. */
export interface FollowOptions {
  /** The emulator's origin, e.g. `http://127.0.0.1:4010`. */
  origin: string;
  fetch: (request: Request) => Promise<Response>;
  /** Ends the stream (Ctrl-C). */
  signal: AbortSignal;
  /** `connected` once first, then `lost` and `resumed` around each reconnection. */
  onConnection?: (state: 'connected' | 'lost' | 'resumed') => void;
  /** An event that was not followed: what it was ({@link SkippedEvent}). */
  onSkipped?: (why: SkippedEvent) => void;
}

/**
 * Why an event of the stream was skipped: `oversized` past the parser's bound (1 MiB, told the
 * moment it is crossed; the rest of it is read without being kept), `not_an_item` when its data
 * is not a JSON object with a numeric `seq` and a `kind`.
 */
export type SkippedEvent = 'oversized' | 'not_an_item';

// What the server asks for with `retry:`; used until it says.
const DEFAULT_RETRY_MS = 2_000;

/**
 * Every activity item from now on, as it happens. When the connection drops, it reconnects after
 * the delay the server asked for (`retry:`), sending `Last-Event-ID`, so the emulator first sends
 * what was missed: no item is lost or repeated while the emulator keeps it (its last 1,000). An
 * emulator that cannot be reached at the start is exit 3; later, reconnection goes on until the
 * signal aborts.
 */
export async function* followActivity(options: FollowOptions): AsyncGenerator<ActivityItem> {
  const { origin, signal } = options;
  let lastId: string | undefined;
  let retryMs = DEFAULT_RETRY_MS;
  let connected = false;
  while (!signal.aborted) {
    const request = streamRequest(options, lastId);
    const response = await options.fetch(request).catch((error: unknown) => error as Error);
    if (signal.aborted) return;
    if (response instanceof Error || !isEventStream(response)) {
      if (!connected) throw unreachable(origin, response);
      await pause(retryMs, signal);
      continue;
    }
    options.onConnection?.(connected ? 'resumed' : 'connected');
    connected = true;
    // fetch follows the Request's signal only while the Request lives (undici holds it weakly):
    // collected during a long read, Ctrl-C would no longer end the body. Held until it is read.
    reading.add(request);
    try {
      for await (const frame of sseFrames(response.body!)) {
        if (frame.oversized) {
          options.onSkipped?.('oversized');
          continue;
        }
        if (frame.retry !== undefined) retryMs = frame.retry;
        if (frame.id !== undefined) lastId = frame.id;
        if (frame.data === undefined) continue;
        const item = activityItem(frame);
        if (item === undefined) {
          options.onSkipped?.('not_an_item');
          continue;
        }
        yield item;
        // Aborted while the item was handled: stop here rather than wait for the next one.
        if (signal.aborted) return;
      }
    } catch (error) {
      if (signal.aborted) return;
      // A reset connection or a half-written frame: reconnect and resume.
      if (!(error instanceof Error)) throw error;
    } finally {
      reading.delete(request);
    }
    if (signal.aborted) return;
    options.onConnection?.('lost');
    await pause(retryMs, signal);
  }
}

// The stream is the server's: an item is only what has the shape every kind shares.
function activityItem(frame: SseFrame): ActivityItem | undefined {
  let item: unknown;
  try {
    item = JSON.parse(frame.data!);
  } catch {
    return undefined;
  }
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const { seq, kind } = item as Partial<ActivityItem>;
  return typeof seq === 'number' && typeof kind === 'string' ? (item as ActivityItem) : undefined;
}

// The requests whose stream is being read (see followActivity).
const reading = new Set<Request>();

function streamRequest({ origin, signal }: FollowOptions, lastId: string | undefined): Request {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (lastId !== undefined) headers['last-event-id'] = lastId;
  return new Request(`${origin}/_emulator/stream`, { headers, signal });
}

function isEventStream(response: Response): boolean {
  return response.ok && (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
}

function unreachable(origin: string, problem: Error | Response): ExitError {
  if (problem instanceof Response) {
    return new ExitError(
      EXIT.config,
      `${origin} has no emulator activity stream (GET /_emulator/stream answered ${problem.status}): this command works against the emulator (parley emulator start)`,
    );
  }
  const code = (problem as { cause?: { code?: string } }).cause?.code ?? problem.message;
  return new ExitError(
    EXIT.config,
    `could not reach the emulator at ${origin}: ${code}. Start it with \`parley emulator start\`, or pass its --base-url`,
  );
}

// Real time between reconnections (the CLI's own wait, not emulator time); ends early on abort.
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
