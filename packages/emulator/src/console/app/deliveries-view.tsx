import { useConsole } from './console-context';
import { control } from './control';
import type { Application } from './control-types';
import { DeliveryTable } from './delivery-table';
import { Empty, LoadError } from './empty';
import { useLiveData } from './live-data';
import { Pager, usePages } from './pager';

/** Webhook deliveries of the application (or of one endpoint), newest first, with their attempts. */
export function DeliveriesView({ app }: { app: Application }) {
  const { route, navigate } = useConsole();
  const pages = usePages();
  const endpointId = route.endpoint;
  const endpoints = useLiveData(
    () => control.listEndpoints({ applicationId: app.id, limit: 100 }),
    [app.id],
    ['control', 'reset'],
  );
  const deliveries = useLiveData(
    () =>
      control.listDeliveries({
        applicationId: app.id,
        ...(endpointId === null ? {} : { endpointId }),
        limit: 50,
        ...(pages.cursor === null ? {} : { cursor: pages.cursor }),
      }),
    [app.id, endpointId, pages.cursor],
    ['delivery', 'control', 'reset'],
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
      <div id="delivery-list" class="table-wrap">
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
