import { ChaosSettings } from './chaos-settings';
import { useConsole } from './console-context';
import { control } from './control';
import type { Endpoint } from './control-types';
import { type Column, DataTable } from './data-table';
import { when } from './format';
import type { Secret } from './reveal-secret';

/** The application's endpoints: enable, chaos, deliveries, test, rotate the secret, delete. */
export function EndpointTable({
  endpoints,
  onSecret,
}: {
  endpoints: Endpoint[];
  onSecret: (secret: Secret) => void;
}) {
  const { act, navigate } = useConsole();
  const setActive = (endpoint: Endpoint, active: boolean) =>
    act(async () => {
      await control.updateEndpoint(endpoint.id, { active });
      return `Endpoint ${active ? 'enabled' : 'disabled'}.`;
    });
  const test = (endpoint: Endpoint) =>
    act(async () => {
      const result = await control.testEndpoint(endpoint.id);
      return `Test event ${result.event_id} queued.`;
    });
  const rotate = (endpoint: Endpoint) =>
    act(async () => {
      const rotation = await control.rotateSecret(endpoint.id);
      onSecret({
        title: 'New signing secret',
        value: rotation.secret,
        note: `The previous secret keeps signing until ${when(rotation.previous_expires_at)}.`,
      });
      return 'Secret rotated.';
    });
  const remove = (endpoint: Endpoint) =>
    act(async () => {
      if (!confirm(`Delete the endpoint ${endpoint.url} and its deliveries?`)) return '';
      await control.deleteEndpoint(endpoint.id);
      return 'Endpoint deleted.';
    });
  const columns: Column<Endpoint>[] = [
    { title: 'URL', class: 'content', cell: (endpoint) => <EndpointUrl endpoint={endpoint} /> },
    { title: 'Events', class: 'events', cell: (endpoint) => endpoint.events.join(', ') },
    {
      title: 'Enabled',
      cell: (endpoint) => (
        <label>
          <input
            type="checkbox"
            checked={endpoint.active}
            onChange={(event) => setActive(endpoint, event.currentTarget.checked)}
          />
          <span class="sr-only">Enabled: {endpoint.url}</span>
        </label>
      ),
    },
    { title: 'Chaos', class: 'chaos-settings', cell: (endpoint) => <ChaosSettings endpoint={endpoint} /> },
    {
      title: 'Actions',
      hiddenTitle: true,
      class: 'actions',
      cell: (endpoint) => (
        <>
          <button
            type="button"
            aria-label={`Deliveries to ${endpoint.url}`}
            onClick={() => navigate({ view: 'deliveries', endpoint: endpoint.id })}
          >
            Deliveries
          </button>
          <button
            type="button"
            aria-label={`Send test event to ${endpoint.url}`}
            onClick={() => test(endpoint)}
          >
            Send test
          </button>
          <button
            type="button"
            aria-label={`Rotate secret of ${endpoint.url}`}
            onClick={() => rotate(endpoint)}
          >
            Rotate secret
          </button>
          <button
            type="button"
            class="danger"
            aria-label={`Delete endpoint ${endpoint.url}`}
            onClick={() => remove(endpoint)}
          >
            Delete
          </button>
        </>
      ),
    },
  ];
  return (
    <DataTable
      caption="Endpoints of this application"
      columns={columns}
      rows={endpoints}
      rowKey={(endpoint) => endpoint.id}
      rowProps={(endpoint) => ({ 'data-endpoint-id': endpoint.id })}
    />
  );
}

/** An endpoint's URL, and what it is for when its creator said (a `parley listen` endpoint says so). */
function EndpointUrl({ endpoint }: { endpoint: Endpoint & { description?: string | null } }) {
  return (
    <>
      <code>{endpoint.url}</code>
      {endpoint.description && <div class="muted endpoint-description">{endpoint.description}</div>}
    </>
  );
}
