import type { WebhookEventType } from '@parley/sdk';
import { useState } from 'preact/hooks';
import { isEmulatorControlError } from '../../control-client/control-client-errors';
import { useConsole } from './console-context';
import { control } from './control';
import type { Application } from './control-types';
import { Empty, LoadError } from './empty';
import { EndpointTable } from './endpoint-table';
import { errorText } from './format';
import { useLiveData } from './live-data';
import { RevealSecret, type Secret } from './reveal-secret';

/** Webhook endpoints: create (refusals said at the field), enable/disable, test, rotate, delete. */
export function EndpointsView({ app }: { app: Application }) {
  const { config, act } = useConsole();
  const [secret, setSecret] = useState<Secret | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const endpoints = useLiveData(
    () => control.listEndpoints({ applicationId: app.id, limit: 100 }),
    [app.id],
    ['control', 'reset'],
  );
  const create = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    void act(async () => {
      try {
        const created = await control.createEndpoint(app.id, {
          url: String(fields.get('url')).trim(),
          // The boxes are the SDK's event types; the API refuses any other.
          events: fields.getAll('event').map(String) as WebhookEventType[],
        });
        setRefusal(null);
        setSecret({ title: 'Signing secret', value: created.secret, note: `Endpoint ${created.url}` });
        (form.elements.namedItem('url') as HTMLInputElement).value = '';
        return 'Endpoint created.';
      } catch (error) {
        if (isEmulatorControlError(error)) setRefusal(errorText(error));
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
