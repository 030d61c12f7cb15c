import { activitySummary } from './activity-summary';
import type { ActivityItem } from './control-types';
import { when } from './format';

/** One activity item whole, beside the timeline. */
export function TimelineDetail({ item }: { item: ActivityItem | null }) {
  return (
    <aside id="timeline-detail" class="detail" aria-label="Details" aria-live="polite">
      {item ? (
        <>
          <h3>
            {item.kind} · {when(item.at)}
          </h3>
          <p>{activitySummary(item)}</p>
          {traceIdOf(item) && (
            <p class="trace-id">
              Trace <code>{traceIdOf(item)}</code>
            </p>
          )}
          <pre>{JSON.stringify(item, null, 2)}</pre>
        </>
      ) : (
        <p class="empty">Choose an item to see it whole.</p>
      )}
    </aside>
  );
}

/** The trace id of a request's W3C `traceparent` (recorded only when valid), to find it in a tracing backend. */
function traceIdOf(item: ActivityItem): string | undefined {
  return item.kind === 'request' && typeof item.traceparent === 'string'
    ? item.traceparent.slice(3, 35)
    : undefined;
}
