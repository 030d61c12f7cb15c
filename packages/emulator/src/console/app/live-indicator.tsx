import type { FeedState } from './live-feed';

const TEXT: Record<FeedState, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  polling: 'Polling: stream down',
};

/** Whether the page follows changes live or by polling. */
export function LiveIndicator({ state }: { state: FeedState }) {
  return (
    <span
      class={`live badge ${state === 'live' ? 'ok' : 'warn'}`}
      id="live-state"
      title="How this page follows changes"
    >
      {TEXT[state]}
    </span>
  );
}
