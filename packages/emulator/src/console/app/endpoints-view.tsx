import { useState } from 'preact/hooks';
import type { ChaosView } from '../../core/control';
import { ApiError, api, path, query } from './api';
import { useConsole } from './console-context';
import type { Application, Endpoint, List } from './control-types';
import { Empty, LoadError } from './empty';
import { when } from './format';
import { useLiveData } from './live-data';
import { RevealSecret, type Secret } from './reveal-secret';

/** Webhook endpoints: create (refusals said at the field), enable/disable, test, rotate, delete. */
export function EndpointsView({ app }: { app: Application }) {
  const { config, act } = useConsole();
  const [secret, setSecret] = useState<Secret | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const endpoints = useLiveData(
    () => api<List<Endpoint>>('GET', `/_emulator/endpoints${query({ application_id: app.id, limit: 100 })}`),
    [app.id],
  );
  const create = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    void act(async () => {
      try {
        const created = await api<Endpoint & { secret: string }>(
          'POST',
          path`/_emulator/applications/${app.id}/endpoints`,
          { url: String(fields.get('url')).trim(), events: fields.getAll('event').map(String) },
        );
        setRefusal(null);
        setSecret({ title: 'Signing secret', value: created.secret, note: `Endpoint ${created.url}` });
        (form.elements.namedItem('url') as HTMLInputElement).value = '';
        return 'Endpoint created.';
      } catch (error) {
        if (error instanceof ApiError) setRefusal(error.message);
        throw error;
      }
    });
  };
  return (
    <section id="endpoints" aria-labelledby="endpoints-title">
      <h2 id="endpoints-title">Webhook endpoints</h2>
      <form id="endpoint-form" onSubmit={create}>
        <div class="field">
          <label for="endpoint-url">URL</label>
          <input
            type="url"
            id="endpoint-url"
            name="url"
            required
            placeholder="http://127.0.0.1:3000/webhooks"
            aria-invalid={refusal !== null}
            aria-describedby={refusal ? 'endpoint-url-error' : undefined}
          />
          {refusal && (
            <p id="endpoint-url-error" class="field-error">
              {refusal}
            </p>
          )}
        </div>
        <fieldset id="endpoint-events">
          <legend>Events</legend>
          {config.eventTypes.map((type) => (
            <label key={type}>
              <input type="checkbox" name="event" value={type} defaultChecked />
              <code>{type}</code>
            </label>
          ))}
        </fieldset>
        <button type="submit" class="primary">
          Add endpoint
        </button>
      </form>
      <RevealSecret id="endpoint-secret" secret={secret} onDone={() => setSecret(null)} />
      <LoadError error={endpoints.error} />
      <div id="endpoint-list">
        {endpoints.data &&
          (endpoints.data.data.length === 0 ? (
            <Empty>No endpoint yet: add one above.</Empty>
          ) : (
            <EndpointTable endpoints={endpoints.data.data} onSecret={setSecret} />
          ))}
      </div>
    </section>
  );
}

function EndpointTable({
  endpoints,
  onSecret,
}: {
  endpoints: Endpoint[];
  onSecret: (secret: Secret) => void;
}) {
  const { act, navigate } = useConsole();
  const setActive = (endpoint: Endpoint, active: boolean) =>
    act(async () => {
      await api('PATCH', path`/_emulator/endpoints/${endpoint.id}`, { active });
      return `Endpoint ${active ? 'enabled' : 'disabled'}.`;
    });
  const test = (endpoint: Endpoint) =>
    act(async () => {
      const result = await api<{ event_id: string }>('POST', path`/_emulator/endpoints/${endpoint.id}/test`);
      return `Test event ${result.event_id} queued.`;
    });
  const rotate = (endpoint: Endpoint) =>
    act(async () => {
      const rotation = await api<{ secret: string; previous_expires_at: string }>(
        'POST',
        path`/_emulator/endpoints/${endpoint.id}/rotate-secret`,
      );
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
      await api('DELETE', path`/_emulator/endpoints/${endpoint.id}`);
      return 'Endpoint deleted.';
    });
  return (
    <table>
      <caption class="sr-only">Endpoints of this application</caption>
      <thead>
        <tr>
          <th scope="col">URL</th>
          <th scope="col">Events</th>
          <th scope="col">Enabled</th>
          <th scope="col">Chaos</th>
          <th scope="col">
            <span class="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {endpoints.map((endpoint) => (
          <tr key={endpoint.id} data-endpoint-id={endpoint.id}>
            <td>
              <code>{endpoint.url}</code>
            </td>
            <td class="events">{endpoint.events.join(', ')}</td>
            <td>
              <label>
                <input
                  type="checkbox"
                  checked={endpoint.active}
                  onChange={(event) => setActive(endpoint, event.currentTarget.checked)}
                />
                <span class="sr-only">Enabled: {endpoint.url}</span>
              </label>
            </td>
            <td class="chaos-settings">
              <ChaosSettings endpointId={endpoint.id} />
            </td>
            <td class="actions">
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
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** How one setting reads: `next 2`, `rate 0.1`, with a `delayed` kind's delay. */
function settingText(setting: { next?: number; rate?: number; delay_ms?: number }): string {
  const amount = setting.next === undefined ? `rate ${setting.rate}` : `next ${setting.next}`;
  return setting.delay_ms === undefined ? amount : `${amount}, ${setting.delay_ms} ms`;
}

/**
 * An endpoint's webhook chaos (`GET /_emulator/endpoints/{id}/chaos`), read-only: the kinds set
 * with `next` counting down, the seed, and how many deliveries got each kind.
 */
function ChaosSettings({ endpointId }: { endpointId: string }) {
  const chaos = useLiveData(
    () => api<ChaosView>('GET', path`/_emulator/endpoints/${endpointId}/chaos`),
    [endpointId],
  );
  if (!chaos.data) return chaos.error ? <span class="muted">?</span> : null;
  const { endpoint_id: _id, seed, applied, ...kinds } = chaos.data;
  const set = Object.entries(kinds as Record<string, { next?: number; rate?: number; delay_ms?: number }>);
  const counts = Object.entries(applied as Record<string, number>);
  if (set.length === 0 && counts.length === 0) return <span class="muted">off</span>;
  return (
    <span>
      {set.map(([kind, setting]) => (
        <span key={kind} class="badge chaos" title={`Webhook chaos: ${kind} ${settingText(setting)}`}>
          {kind} {settingText(setting)}
        </span>
      ))}
      {seed !== null && <span class="muted"> seed {seed}</span>}
      {counts.length > 0 && (
        <span class="muted"> · applied {counts.map(([kind, count]) => `${kind} ${count}`).join(', ')}</span>
      )}
    </span>
  );
}
