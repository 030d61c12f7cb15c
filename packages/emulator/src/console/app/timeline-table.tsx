import { activityStatus, activitySummary } from './activity-summary';
import { Badge } from './badge';
import type { ActivityItem } from './control-types';
import { type Column, DataTable } from './data-table';
import { when } from './format';

/** The timeline's items, newest first; the summary of each is the button that shows it whole. */
export function TimelineTable(props: {
  items: ActivityItem[];
  selected: ActivityItem | null;
  onSelect: (item: ActivityItem) => void;
}) {
  const columns: Column<ActivityItem>[] = [
    { title: 'Time', class: 'nowrap', cell: (item) => when(item.at) },
    { title: 'Type', cell: (item) => item.kind },
    {
      title: 'What',
      class: 'content',
      cell: (item) => (
        <button
          type="button"
          class="link"
          aria-expanded={props.selected?.seq === item.seq}
          aria-controls="timeline-detail"
          onClick={() => props.onSelect(item)}
        >
          {activitySummary(item)}
        </button>
      ),
    },
    {
      title: 'Status',
      cell: (item) => {
        const status = activityStatus(item);
        return status !== undefined && <Badge status={status} />;
      },
    },
  ];
  return (
    <DataTable
      caption="Activity, newest first"
      columns={columns}
      rows={props.items}
      rowKey={(item) => item.seq}
      rowProps={(item) => ({
        'data-seq': item.seq,
        'data-kind': item.kind,
        'aria-selected': props.selected?.seq === item.seq,
      })}
    />
  );
}
