import type { ConversationSummary } from '../../core/control-types';
import { useConsole } from './console-context';
import { control } from './control';
import type { Application } from './control-types';
import { ConversationThread } from './conversation-thread';
import { Empty, LoadError } from './empty';
import { when } from './format';
import { useLiveData } from './live-data';

/**
 * Play the customer: the application's conversations (one per connection and customer number,
 * newest first), a new one from any number (the sandbox's magic numbers offered), and the thread
 * opened with its composer. The thread opened is in the route (`connection=…&customer=…`): a link
 * or a reload opens it again.
 */
export function ConversationsView({ app }: { app: Application }) {
  const { route, navigate } = useConsole();
  const opened =
    route.connection && route.customer ? { connectionId: route.connection, number: route.customer } : null;
  const open = (connectionId: string, number: string) =>
    navigate({ connection: connectionId, customer: number });
  const threads = useLiveData(
    () => control.listConversations(app.id, { limit: 100 }),
    [app.id],
    ['message', 'event', 'reset'],
  );
  const connections = useLiveData(
    () => control.listApplicationConnections(app.id, { limit: 100 }),
    [app.id],
    ['control', 'reset'],
  );
  const magic = useLiveData(
    () =>
      app.environment === 'sandbox'
        ? control.listMagicNumbers({ limit: 100 })
        : Promise.resolve({ object: 'list' as const, data: [], has_more: false, next_cursor: null }),
    [app.environment],
    [],
  );
  const all = connections.data?.data ?? [];
  const start = (event: Event) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget as HTMLFormElement);
    open(String(fields.get('connection')), String(fields.get('number')).trim());
  };
  const isOpen = (thread: ConversationSummary) =>
    opened?.connectionId === thread.connection_id && opened.number === thread.customer;
  return (
    <section id="conversations" aria-labelledby="conversations-title">
      <h2 id="conversations-title">Conversations</h2>
      <p class="muted">
        Write as the customer: the app's endpoints get a signed <code>message.received</code> at once
        {app.environment === 'sandbox'
          ? ' (a synthetic event with your sender and text)'
          : ' (as POST /_emulator/connections/{id}/inbound, opening the 24 h window)'}
        ; its replies appear here as they happen.
      </p>
      <form id="conversation-start" class="row" onSubmit={start}>
        <div class="field">
          <label for="conversation-connection">Connection</label>
          <select id="conversation-connection" name="connection">
            {all.map((connection) => (
              <option key={connection.id} value={connection.id}>
                {connection.name} ({connection.phone_number})
                {connection.status === 'active' ? '' : `, ${connection.status}`}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="conversation-number">Customer number</label>
          <input
            id="conversation-number"
            name="number"
            type="tel"
            required
            pattern="\+[0-9]{8,15}"
            defaultValue="+33612345678"
            list="conversation-magic"
          />
          <datalist id="conversation-magic">
            {(magic.data?.data ?? []).map((recipient) => (
              <option key={recipient.number} value={recipient.number}>
                {recipient.behaviour}
              </option>
            ))}
          </datalist>
        </div>
        <button type="submit" disabled={all.length === 0}>
          Open conversation
        </button>
      </form>
      <LoadError error={threads.error ?? connections.error} />
      <div class={opened ? 'conversation-split' : undefined}>
        <div id="conversation-list" class="table-wrap">
          {threads.data &&
            (threads.data.data.length === 0 ? (
              <Empty>No conversation yet: open one above and write as the customer.</Empty>
            ) : (
              <ul class="threads">
                {threads.data.data.map((thread) => (
                  <li key={`${thread.connection_id} ${thread.customer}`}>
                    <button
                      type="button"
                      class="link"
                      aria-current={isOpen(thread) ? 'true' : undefined}
                      onClick={() => open(thread.connection_id, thread.customer)}
                    >
                      <span class="mono">{thread.customer}</span>
                    </button>{' '}
                    <span class="muted">
                      {thread.message_count} · {when(thread.last_message_at)}
                    </span>
                    <div class="thread-preview muted">
                      {thread.last_direction === 'inbound' ? '← ' : '→ '}
                      {thread.last_text}
                    </div>
                  </li>
                ))}
              </ul>
            ))}
        </div>
        {opened && (
          <ConversationThread
            key={`${opened.connectionId} ${opened.number}`}
            app={app}
            connectionId={opened.connectionId}
            number={opened.number}
          />
        )}
      </div>
    </section>
  );
}
