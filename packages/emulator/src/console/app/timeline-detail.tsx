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
          <pre>{JSON.stringify(item, null, 2)}</pre>
        </>
      ) : (
        <p class="empty">Choose an item to see it whole.</p>
      )}
    </aside>
  );
}
