import { Badge } from './badge';
import { useConsole } from './console-context';
import { control } from './control';
import type { ConnectionWithTemplates } from './control-types';

/** One connection: its number, status and templates; a simulated live one can be disconnected and written to. */
export function ConnectionCard({
  connection,
  simulated,
}: {
  connection: ConnectionWithTemplates;
  simulated: boolean;
}) {
  const { act } = useConsole();
  const disconnect = () =>
    act(async () => {
      await control.disconnectConnection(connection.id);
      return `Connection ${connection.name} disconnected.`;
    });
  const inbound = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    void act(async () => {
      const message = await control.receiveInbound(connection.id, {
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
