// Ours, not h3's EventStream (issue 22, measured against h3 2.0.8): EventStream queues every push
// in an unbounded TransformStream and cannot end a stream with an error, so a client that does not
// read holds all that is published (8,000 items of 4 KiB: 76.5 MiB held, here 0 once it is dropped)
// and close() waits for it to read. It also formats and encodes each frame once per client: 50
// reading clients, 1,000 items of 4 KiB cost 0.9-1.7 s of CPU, here 0.06-0.24 s (one frame shared).
import type { ActivityEntry, ActivityFeed } from '../core/activity-feed';

/** A comment line every so often keeps proxies and idle timeouts from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;
/**
 * Bytes a client's stream holds unread. Past them the client waits on the feed's kept items
 * instead, by number: a client that does not read costs this, its socket's buffers (Node's
 * 64 KiB, the kernel's) and nothing more, however much is published.
 */
export const STREAM_QUEUE_BYTES = 64 * 1024;

/** Why a stream was cut: the client fell behind the kept items. It reconnects and resumes. */
export class StreamClientBehind extends Error {
  constructor() {
    super('the activity stream client fell behind the items the emulator keeps');
    this.name = 'StreamClientBehind';
  }
}

/** Where a stream starts, what ends it, and how much it may hold unread. */
export interface ActivityStreamOptions {
  /** The last item the client has (`Last-Event-ID`): the kept ones after it come first. */
  lastEventId?: number | undefined;
  /** The request's: the stream ends with it. */
  signal?: AbortSignal | undefined;
  /** Default {@link STREAM_QUEUE_BYTES}; tests set 1 to make each frame fill the queue. */
  queueBytes?: number;
}

const encoder = new TextEncoder();
// The frame built last, per feed: a publish reaching many clients is encoded once.
const lastFrames = new WeakMap<ActivityFeed, { entry: ActivityEntry; bytes: Uint8Array }>();

/**
 * The SSE body of `GET /_emulator/stream`: first the kept items after `lastEventId` (when given),
 * then every item as it is published. A client whose next item has left the kept history (it read
 * too slowly, or not at all) is dropped: its stream errors, which ends the socket; `EventSource`
 * and `parley logs tail` reconnect with `Last-Event-ID` and get what is still kept.
 */
export function activityStream(
  feed: ActivityFeed,
  options: ActivityStreamOptions = {},
): ReadableStream<Uint8Array> {
  const { lastEventId, signal, queueBytes = STREAM_QUEUE_BYTES } = options;
  let controller: ReadableStreamDefaultController<Uint8Array>;
  let cursor = startingCursor(feed, lastEventId);
  let unsubscribe = () => {};
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  let pumping = false;
  const room = () => !stopped && (controller.desiredSize ?? 0) > 0;
  const stop = (behind?: StreamClientBehind) => {
    if (stopped) return;
    stopped = true;
    unsubscribe();
    clearInterval(keepAlive);
    signal?.removeEventListener('abort', onAbort);
    try {
      // Erroring discards what the queue holds: a client that does not read frees it now.
      if (behind) controller.error(behind);
      else controller.close();
    } catch {
      // Already closed by the client's cancel.
    }
  };
  const onAbort = () => stop();
  // Moves kept items into the queue while it has room; a gap before the next means it fell behind.
  const pump = () => {
    // An enqueue calls pull, which would pump again inside this loop.
    if (pumping) return;
    pumping = true;
    try {
      while (room()) {
        const next = feed.entryAfter(cursor);
        if (next === undefined) return;
        if (next.item.seq !== cursor + 1) return stop(new StreamClientBehind());
        cursor = next.item.seq;
        controller.enqueue(frameOf(feed, next));
      }
      if (feed.lastSeq > cursor && feed.entryAfter(cursor)?.item.seq !== cursor + 1) {
        stop(new StreamClientBehind());
      }
    } finally {
      pumping = false;
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
        controller.enqueue(encoder.encode('retry: 2000\n: parley emulator activity\n\n'));
        unsubscribe = feed.subscribe(pump);
        keepAlive = setInterval(() => {
          if (room()) controller.enqueue(encoder.encode(': keep-alive\n\n'));
        }, KEEP_ALIVE_MS);
        keepAlive.unref?.();
        signal?.addEventListener('abort', onAbort, { once: true });
        pump();
      },
      pull: pump,
      cancel: () => stop(),
    },
    new ByteLengthQueuingStrategy({ highWaterMark: queueBytes }),
  );
}

function startingCursor(feed: ActivityFeed, lastEventId: number | undefined): number {
  const newest = feed.lastSeq;
  // An id from before a restart (numbering starts again) or from nowhere: only new items.
  if (lastEventId === undefined || lastEventId >= newest) return newest;
  // Items no longer kept are skipped: the client gets what is.
  const first = feed.entryAfter(lastEventId);
  return first === undefined ? newest : first.item.seq - 1;
}

function frameOf(feed: ActivityFeed, entry: ActivityEntry): Uint8Array {
  const last = lastFrames.get(feed);
  if (last?.entry === entry) return last.bytes;
  const bytes = encoder.encode(`id: ${entry.item.seq}\ndata: ${feed.json(entry)}\n\n`);
  lastFrames.set(feed, { entry, bytes });
  return bytes;
}
