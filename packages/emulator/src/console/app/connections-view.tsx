import { api, path } from './api';
import { Badge } from './badge';
import { useConsole } from './console-context';
import type { Application, Connection, ConnectionWithTemplates, List, Message } from './control-types';
import { Empty, LoadError } from './empty';
import { useLiveData } from './live-data';

/** The application's connections: the sandbox fixtures, or simulated live numbers to connect, disconnect and write to. */
export function ConnectionsView({ app }: { app: Application }) {
  const { act } = useConsole();
  const live = app.environment === 'live';
  const connections = useLiveData(
    () => api<List<ConnectionWithTemplates>>('GET', path`/_emulator/applications/${app.id}/connections`),
    [app.id],
  );
  const connect = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    void act(async () => {
      const created = await api<Connection>('POST', path`/_emulator/applications/${app.id}/connections`, {
        phone_number: String(fields.get('phone_number')).trim(),
        name: String(fields.get('name')).trim() || undefined,
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

function ConnectionCard({
  connection,
  simulated,
}: {
  connection: ConnectionWithTemplates;
  simulated: boolean;
}) {
  const { act } = useConsole();
  const disconnect = () =>
    act(async () => {
      await api('POST', path`/_emulator/connections/${connection.id}/disconnect`);
      return `Connection ${connection.name} disconnected.`;
    });
  const inbound = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    void act(async () => {
      const message = await api<Message>('POST', path`/_emulator/connections/${connection.id}/inbound`, {
        from: String(fields.get('from')).trim(),
        text: String(fields.get('text')),
      });
      (form.elements.namedItem('text') as HTMLTextAreaElement).value = '';
      return `Inbound message ${message.id} received from ${message.from}.`;
    });
  };
  const idFor = (name: string) => `${name}-${connection.id}`;
  return (
    <article
      class="connection"
      data-connection-id={connection.id}
      aria-label={`Connection ${connection.name}`}
    >
      <div class="row">
        <strong>{connection.name}</strong>
        <code>{connection.phone_number}</code>
        <Badge status={connection.status} />
        <span class="muted">
          {connection.livemode ? 'simulated live' : 'sandbox fixture'} · quality {connection.quality_rating} ·{' '}
          {connection.templates.length} templates
        </span>
        {simulated && connection.status === 'active' && (
          <button
            type="button"
            class="danger"
            aria-label={`Disconnect ${connection.name}`}
            onClick={disconnect}
          >
            Disconnect
          </button>
        )}
      </div>
      <code class="muted">{connection.id}</code>
      {simulated && connection.status === 'active' && (
        <form class="row inbound" onSubmit={inbound}>
          <div class="field">
            <label for={idFor('inbound-from')}>Customer number</label>
            <input id={idFor('inbound-from')} name="from" type="tel" required defaultValue="+33612345678" />
          </div>
          <div class="field grow">
            <label for={idFor('inbound-text')}>Inbound text</label>
            <textarea id={idFor('inbound-text')} name="text" rows={1} required maxLength={4096} />
          </div>
          <button type="submit" aria-label={`Simulate inbound message to ${connection.name}`}>
            Simulate inbound
          </button>
        </form>
      )}
    </article>
  );
}
