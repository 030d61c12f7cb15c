import { api, query } from './api';
import type { Application, List, WebhookEvent } from './control-types';
import { Empty, LoadError } from './empty';
import { when } from './format';
import { useLiveData } from './live-data';

/** Recent events of the application, newest first. */
export function TimelineView({ app }: { app: Application }) {
  const events = useLiveData(
    () => api<List<WebhookEvent>>('GET', `/_emulator/events${query({ application_id: app.id, limit: 50 })}`),
    [app.id],
  );
  return (
    <section id="timeline" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <LoadError error={events.error} />
      <div id="event-list">
        {events.data &&
          (events.data.data.length === 0 ? (
            <Empty>No event yet.</Empty>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Type</th>
                  <th scope="col">Id</th>
                </tr>
              </thead>
              <tbody>
                {events.data.data.map((event) => (
                  <tr key={event.id}>
                    <td>{when(event.created_at)}</td>
                    <td>{event.type}</td>
                    <td>
                      <code>{event.id}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
      </div>
    </section>
  );
}
