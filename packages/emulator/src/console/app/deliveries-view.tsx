import { api, path, query } from './api';
import { Badge } from './badge';
import { useConsole } from './console-context';
import type { Application, Delivery, Endpoint, List } from './control-types';
import { Empty, LoadError } from './empty';
import { when } from './format';
import { useLiveData } from './live-data';
import { Pager, usePages } from './pager';

type Attempt = Delivery['attempts'][number];

/** Webhook deliveries of the application (or of one endpoint), newest first, with their attempts. */
export function DeliveriesView({ app }: { app: Application }) {
  const { route, navigate } = useConsole();
  const pages = usePages();
  const endpointId = route.endpoint;
  const endpoints = useLiveData(
    () => api<List<Endpoint>>('GET', `/_emulator/endpoints${query({ application_id: app.id, limit: 100 })}`),
    [app.id],
  );
  const deliveries = useLiveData(
    () =>
      api<List<Delivery>>(
        'GET',
        `/_emulator/deliveries${query({ application_id: app.id, endpoint_id: endpointId, limit: 50, cursor: pages.cursor })}`,
      ),
    [app.id, endpointId, pages.cursor],
  );
  const urlOf = new Map((endpoints.data?.data ?? []).map((endpoint) => [endpoint.id, endpoint.url]));
  return (
    <section id="deliveries" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Webhook deliveries</h2>
      <div class="filters">
        <div class="field inline">
          <label for="delivery-endpoint">Endpoint</label>
          <select
            id="delivery-endpoint"
            value={endpointId ?? ''}
            onChange={(event) => {
              pages.first();
              navigate({ endpoint: event.currentTarget.value || null });
            }}
          >
            <option value="">All endpoints</option>
            {(endpoints.data?.data ?? []).map((endpoint) => (
              <option key={endpoint.id} value={endpoint.id}>
                {endpoint.url}
              </option>
            ))}
          </select>
        </div>
      </div>
      <LoadError error={deliveries.error} />
      <div id="delivery-list">
        {deliveries.data &&
          (deliveries.data.data.length === 0 ? (
            <Empty>No delivery yet: send a test event from Endpoints.</Empty>
          ) : (
            <DeliveryTable deliveries={deliveries.data.data} urlOf={urlOf} />
          ))}
      </div>
      {deliveries.data && <Pager pages={pages} label="Deliveries" nextCursor={deliveries.data.next_cursor} />}
    </section>
  );
}

function DeliveryTable({ deliveries, urlOf }: { deliveries: Delivery[]; urlOf: Map<string, string> }) {
  const { act } = useConsole();
  const replay = (delivery: Delivery) =>
    act(async () => {
      await api('POST', path`/_emulator/deliveries/${delivery.id}/replay`);
      return 'Replay queued (same event id).';
    });
  return (
    <table>
      <caption class="sr-only">Deliveries, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Status</th>
          <th scope="col">Event</th>
          <th scope="col">Endpoint</th>
          <th scope="col">Attempts</th>
          <th scope="col">Next attempt</th>
          <th scope="col">
            <span class="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <tr key={delivery.id} data-delivery-id={delivery.id}>
            <td>
              <Badge status={delivery.status} />
              {delivery.chaos && <ChaosBadge kinds={delivery.chaos} />}
            </td>
            <td>
              {delivery.event_type}
              <br />
              <code class="muted">{delivery.event_id}</code>
            </td>
            <td>
              <code>{urlOf.get(delivery.endpoint_id) ?? delivery.endpoint_id}</code>
            </td>
            <td>
              <Attempts attempts={delivery.attempts} />
            </td>
            <td>{when(delivery.next_attempt_at) || '—'}</td>
            <td class="actions">
              {delivery.status !== 'pending' && (
                <button
                  type="button"
                  aria-label={`Replay ${delivery.event_type} ${delivery.event_id}`}
                  onClick={() => replay(delivery)}
                >
                  Replay
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function attemptText(attempt: Attempt): string {
  return attempt.status_code !== null ? `HTTP ${attempt.status_code}` : (attempt.error ?? 'no answer');
}

/** Webhook chaos on a delivery (`PUT /_emulator/endpoints/{id}/chaos`): small, and named in full on hover. */
function ChaosBadge({ kinds }: { kinds: readonly string[] }) {
  return (
    <span class="badge chaos" title={`Webhook chaos: ${kinds.join(', ')}`}>
      {`chaos: ${kinds.join(', ')}`}
    </span>
  );
}

function Attempts({ attempts }: { attempts: Attempt[] }) {
  const last = attempts[attempts.length - 1];
  if (!last) return <span class="muted">none yet</span>;
  // Chaos copies are not attempts of the delivery (they never count for its status): said apart.
  const copies = attempts.filter((attempt) => attempt.chaos !== undefined).length;
  const count = copies > 0 ? `${attempts.length - copies} + ${copies} chaos` : `${attempts.length}`;
  return (
    <details>
      <summary>{`${count} · last: ${attemptText(last)}`}</summary>
      <ol class="attempts">
        {attempts.map((attempt, index) => (
          <li key={index}>
            {attempt.chaos && <span class="badge chaos">{attempt.chaos}</span>} {when(attempt.at)} ·{' '}
            {attemptText(attempt)}
            {attempt.error && attempt.status_code !== null ? ` · ${attempt.error}` : ''} ·{' '}
            {attempt.duration_ms} ms
          </li>
        ))}
      </ol>
    </details>
  );
}
