import { loadMessageTrail, statusHistory } from './_message-trail';
import { Badge } from './badge';
import type { Application, Message } from './control-types';
import { DeliveryTable } from './delivery-table';
import { LoadError } from './empty';
import { when } from './format';
import { useLiveData } from './live-data';

/**
 * One message whole: every field, the statuses it went through with their times, the events
 * about it and their webhook deliveries.
 */
export function MessageDetail({
  app,
  message,
  onClose,
}: {
  app: Application;
  message: Message;
  onClose: () => void;
}) {
  const trail = useLiveData(
    () => loadMessageTrail(app.id, message),
    // A new status comes with its event: the list's reload brings the status, the event item this.
    [app.id, message.id, message.status],
    ['event', 'delivery', 'reset'],
  );
  const loaded = trail.data;
  return (
    <aside id="message-detail" class="detail" aria-label={`Message ${message.id}`}>
      <div class="row">
        <h3>Message</h3>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <dl class="fields">
        {Object.entries(message).map(([field, value]) => (
          <div key={field}>
            <dt>{field}</dt>
            <dd>
              <code>{fieldText(value)}</code>
            </dd>
          </div>
        ))}
      </dl>
      <LoadError error={trail.error} />
      {loaded && (
        <>
          <h4>Status history</h4>
          <ol id="message-statuses" class="steps">
            {statusHistory(message, loaded.events).map((step) => (
              <li key={`${step.status}-${step.at}`}>
                <Badge status={step.status} /> {when(step.at)}
              </li>
            ))}
          </ol>
          <h4>Events</h4>
          {loaded.events.length === 0 ? (
            <p class="empty">No event about this message.</p>
          ) : (
            <ol id="message-events" class="steps">
              {loaded.events.map((event) => (
                <li key={event.id} data-event-id={event.id}>
                  <code>{event.type}</code> {when(event.created_at)} <code class="muted">{event.id}</code>
                </li>
              ))}
            </ol>
          )}
          <h4>Deliveries</h4>
          <div id="message-deliveries" class="table-wrap">
            {loaded.deliveries.length === 0 ? (
              <p class="empty">No webhook delivery of these events.</p>
            ) : (
              <DeliveryTable deliveries={loaded.deliveries} urlOf={new Map()} />
            )}
          </div>
          {!loaded.complete && (
            <p class="muted">Only the newest 1,000 events and deliveries were searched.</p>
          )}
        </>
      )}
    </aside>
  );
}

function fieldText(value: unknown): string {
  if (value === null) return 'null';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
