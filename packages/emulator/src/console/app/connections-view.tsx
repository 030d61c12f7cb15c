import { useState } from 'preact/hooks';
import {
  type EmulatorControlError,
  isEmulatorControlError,
} from '../../control-client/control-client-errors';
import { ConnectionCard } from './connection-card';
import { useConsole } from './console-context';
import { control } from './control';
import type { Application } from './control-types';
import { Empty, LoadError } from './empty';
import { errorText } from './format';
import { useLiveData } from './live-data';

/** The application's connections: the sandbox fixtures, or simulated live numbers to connect, disconnect and write to. */
export function ConnectionsView({ app }: { app: Application }) {
  const { act } = useConsole();
  const live = app.environment === 'live';
  // The API's refusal of the number: its rule, said at the field.
  const [refusal, setRefusal] = useState<EmulatorControlError | null>(null);
  const connections = useLiveData(
    () => control.listApplicationConnections(app.id, { limit: 100 }),
    [app.id],
    ['control', 'reset'],
  );
  const connect = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    void act(async () => {
      const name = String(fields.get('name')).trim();
      let created: Awaited<ReturnType<typeof control.createConnection>>;
      try {
        created = await control.createConnection(app.id, {
          phone_number: String(fields.get('phone_number')).trim(),
          ...(name === '' ? {} : { name }),
        });
        setRefusal(null);
      } catch (error) {
        if (isEmulatorControlError(error)) setRefusal(error);
        throw error;
      }
      form.reset();
      return `Connection ${created.name} (${created.phone_number}) connected.`;
    });
  };
  const refusedPhone = refusal?.details.field === 'phone_number';
  return (
    <section id="connections" aria-labelledby="connections-title">
      <h2 id="connections-title">Connections</h2>
      {live ? (
        <form id="connection-form" class="row" onSubmit={connect}>
          <div class="field">
            <label for="connection-phone">Phone number</label>
            <input
              id="connection-phone"
              name="phone_number"
              type="tel"
              required
              placeholder="+33100000001"
              aria-invalid={refusedPhone}
              aria-describedby={refusedPhone ? 'connection-phone-error' : undefined}
            />
            {refusedPhone && (
              <p id="connection-phone-error" class="field-error">
                {errorText(refusal)}
              </p>
            )}
          </div>
          <div class="field">
            <label for="connection-name">Display name</label>
            <input id="connection-name" name="name" type="text" maxLength={200} />
          </div>
          <button type="submit" class="primary">
            Connect number
          </button>
        </form>
      ) : (
        <p class="muted">
          Sandbox applications have the two fixed sandbox connections (the same ids in every run). Inbound
          messages to them come from <code>POST /v1/sandbox/events</code>; live applications get numbers of
          their own here.
        </p>
      )}
      <LoadError error={connections.error} />
      <div id="connection-list">
        {connections.data &&
          (connections.data.data.length === 0 ? (
            <Empty>No connection yet: connect a number above.</Empty>
          ) : (
            connections.data.data.map((connection) => (
              <ConnectionCard key={connection.id} connection={connection} simulated={live} />
            ))
          ))}
      </div>
    </section>
  );
}
