import { useState } from 'preact/hooks';
import { ACTIVITY_STATUSES } from '../../domain/activity-statuses';
import { ACTIVITY_KINDS } from './activity-summary';
import { useConsole } from './console-context';
import { control } from './control';
import type { ActivityItem, Application } from './control-types';
import { Empty, LoadError } from './empty';
import { useLiveData } from './live-data';
import { Pager, usePages } from './pager';
import { TimelineDetail } from './timeline-detail';
import { TimelineTable } from './timeline-table';

interface Filters {
  application: string;
  type: string;
  status: string;
}

/** Every /v1 request, event, status change and delivery attempt, newest first; a click shows one whole. */
export function TimelineView({ app }: { app: Application }) {
  const { apps, config } = useConsole();
  const pages = usePages();
  const [filters, setFilters] = useState<Filters>({ application: app.id, type: '', status: '' });
  const [selected, setSelected] = useState<ActivityItem | null>(null);
  const activity = useLiveData(
    () =>
      control.listActivity({
        // An empty select is no filter ("All", "Everything", "Any").
        ...(filters.application !== '' && { applicationId: filters.application }),
        ...(filters.type !== '' && { type: filters.type }),
        ...(filters.status !== '' && { status: filters.status }),
        limit: 50,
        ...(pages.cursor === null ? {} : { cursor: pages.cursor }),
      }),
    [filters.application, filters.type, filters.status, pages.cursor],
    'every change',
  );
  const filter = (name: keyof Filters) => (event: Event) => {
    pages.first();
    setFilters({ ...filters, [name]: (event.currentTarget as HTMLSelectElement).value });
  };
  return (
    <section id="timeline" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <div class="filters">
        <div class="field inline">
          <label for="timeline-application">Application</label>
          <select id="timeline-application" value={filters.application} onChange={filter('application')}>
            <option value="">All applications</option>
            {apps.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name} ({option.environment})
              </option>
            ))}
          </select>
        </div>
        <div class="field inline">
          <label for="timeline-type">Type</label>
          <select id="timeline-type" value={filters.type} onChange={filter('type')}>
            <option value="">Everything</option>
            {ACTIVITY_KINDS.map(([kind, title]) => (
              <option key={kind} value={kind}>
                {title}
              </option>
            ))}
            <optgroup label="Event types">
              {config.eventTypes.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </optgroup>
          </select>
        </div>
        <div class="field inline">
          <label for="timeline-status">Status</label>
          <select id="timeline-status" value={filters.status} onChange={filter('status')}>
            <option value="">Any</option>
            {ACTIVITY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </div>
      </div>
      <LoadError error={activity.error} />
      <div class="split">
        <div id="timeline-list" class="table-wrap">
          {activity.data &&
            (activity.data.data.length === 0 ? (
              <Empty>Nothing yet: requests, events and deliveries appear here as they happen.</Empty>
            ) : (
              <TimelineTable items={activity.data.data} selected={selected} onSelect={setSelected} />
            ))}
          {activity.data && <Pager pages={pages} label="Timeline" nextCursor={activity.data.next_cursor} />}
        </div>
        <TimelineDetail item={selected} />
      </div>
    </section>
  );
}
