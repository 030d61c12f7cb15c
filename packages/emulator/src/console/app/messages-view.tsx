import { api, query } from './api';
import { Badge } from './badge';
import type { Application, List, Message } from './control-types';
import { Empty, LoadError } from './empty';
import { when } from './format';
import { useLiveData } from './live-data';
import { Pager, usePages } from './pager';
import { SendMessageForm } from './send-message-form';

/** Messages of the application, newest first, a page at a time, their status kept current. */
export function MessagesView({ app }: { app: Application }) {
  const pages = usePages();
  const messages = useLiveData(
    () =>
      api<List<Message>>(
        'GET',
        `/_emulator/messages${query({ application_id: app.id, limit: 50, cursor: pages.cursor })}`,
      ),
    [app.id, pages.cursor],
  );
  return (
    <section id="messages" aria-labelledby="messages-title">
      <h2 id="messages-title">Messages</h2>
      <details class="send" open>
        <summary>Send a message</summary>
        <SendMessageForm app={app} />
      </details>
      <h3>Messages, newest first</h3>
      <LoadError error={messages.error} />
      <div id="message-list">
        {messages.data &&
          (messages.data.data.length === 0 ? (
            <Empty>No message yet.</Empty>
          ) : (
            <MessageTable messages={messages.data.data} />
          ))}
      </div>
      {messages.data && <Pager pages={pages} label="Messages" nextCursor={messages.data.next_cursor} />}
    </section>
  );
}

function MessageTable({ messages }: { messages: Message[] }) {
  return (
    <table>
      <caption class="sr-only">Messages, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Created</th>
          <th scope="col">Direction</th>
          <th scope="col">Content</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {messages.map((message) => (
          <tr key={message.id} data-message-id={message.id}>
            <td>{when(message.created_at)}</td>
            <td>{message.direction === 'inbound' ? `from ${message.from}` : `to ${message.to}`}</td>
            <td class="content">
              {message.type === 'template' && message.template
                ? `template ${message.template.name}`
                : message.text}
            </td>
            <td>
              <Badge status={message.status} />
              {message.error && <span class="muted"> {message.error.code}</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
