import { ConnectionCard } from './connection-card';
import { useConsole } from './console-context';
import { control } from './control';
import type { Application } from './control-types';
import { Empty, LoadError } from './empty';
import { useLiveData } from './live-data';

/** The application's connections: the sandbox fixtures, or simulated live numbers to connect, disconnect and write to. */
export function ConnectionsView({ app }: { app: Application }) {
  const { act } = useConsole();
  const live = app.environment === 'live';
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
      const created = await control.createConnection(app.id, {
        phone_number: String(fields.get('phone_number')).trim(),
        ...(name === '' ? {} : { name }),
      });
      form.reset();
      return `Connection ${created.name} (${created.phone_number}) connected.`;
    });
  };
  return (
    <section id="connections" aria-labelledby="connections-title">
      <h2 id="connections-title">Connections</h2>
      {live ? (
        <form id="connection-form" class="row" onSubmit={connect}>
          <div class="field">
            <label for="connection-phone">Phone number</label>
            <input id="connection-phone" name="phone_number" type="tel" required placeholder="+33100000001" />
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
