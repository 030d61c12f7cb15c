import { useEffect, useRef, useState } from 'preact/hooks';
import type { ActivityItem } from '../../core/activity-feed';

/** How the page learns of changes: the event stream, or polling while the stream is down. */
export type FeedState = 'connecting' | 'live' | 'polling';

const POLL_MS = 2_000;
const RECONNECT_MS = 5_000;

/**
 * Follows `GET /_emulator/stream`: every item goes to `onItem`. When the stream drops, `onPoll`
 * runs every 2 s until it is back (EventSource reconnects by itself, resuming after the last item
 * it saw; a stream the server refused is opened again every 5 s).
 */
export function useLiveFeed(onItem: (item: ActivityItem) => void, onPoll: () => void): FeedState {
  const [state, setState] = useState<FeedState>('connecting');
  const handlers = useRef({ onItem, onPoll });
  handlers.current = { onItem, onPoll };
  useEffect(() => {
    let source: EventSource | undefined;
    let poll: ReturnType<typeof setInterval> | undefined;
    let reconnect: ReturnType<typeof setTimeout> | undefined;
    const startPolling = () => {
      setState('polling');
      poll ??= setInterval(() => {
        if (!document.hidden) handlers.current.onPoll();
      }, POLL_MS);
    };
    const stopPolling = () => {
      clearInterval(poll);
      poll = undefined;
    };
    const connect = () => {
      source = new EventSource('/_emulator/stream');
      source.onopen = () => {
        stopPolling();
        setState('live');
        // What changed while the stream was down is not all in the feed (its reads are not): reload.
        handlers.current.onPoll();
      };
      source.onmessage = (message: MessageEvent<string>) => {
        handlers.current.onItem(JSON.parse(message.data) as ActivityItem);
      };
      source.onerror = () => {
        startPolling();
        if (source?.readyState === EventSource.CLOSED) {
          clearTimeout(reconnect);
          reconnect = setTimeout(connect, RECONNECT_MS);
        }
      };
    };
    connect();
    return () => {
      source?.close();
      stopPolling();
      clearTimeout(reconnect);
    };
  }, []);
  return state;
}
