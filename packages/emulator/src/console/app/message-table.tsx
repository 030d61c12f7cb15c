import { Badge } from './badge';
import type { Message } from './control-types';
import { type Column, DataTable } from './data-table';
import { when } from './format';

/** What a message says in one line: its text, or its template's name. */
export function messageContent(message: Message): string | null {
  return message.type === 'template' && message.template ? `template ${message.template.name}` : message.text;
}

/** Messages of a page, newest first; a message's id opens its detail. */
export function MessageTable({
  messages,
  opened,
  onOpen,
}: {
  messages: Message[];
  opened: string | null;
  onOpen: (message: Message) => void;
}) {
  const columns: Column<Message>[] = [
    {
      title: 'Message',
      class: 'id',
      cell: (message) => (
        <button
          type="button"
          class="link mono"
          aria-expanded={opened === message.id}
          aria-controls="message-detail"
          aria-label={`Open message ${message.id}`}
          onClick={() => onOpen(message)}
        >
          {message.id}
        </button>
      ),
    },
    { title: 'Created', cell: (message) => when(message.created_at) },
    {
      title: 'Direction',
      cell: (message) => (message.direction === 'inbound' ? `from ${message.from}` : `to ${message.to}`),
    },
    { title: 'Content', class: 'content', cell: messageContent },
    {
      title: 'Status',
      cell: (message) => (
        <>
          <Badge status={message.status} />
          {message.error && <span class="muted"> {message.error.code}</span>}
        </>
      ),
    },
  ];
  return (
    <DataTable
      caption="Messages, newest first"
      columns={columns}
      rows={messages}
      rowKey={(message) => message.id}
      rowProps={(message) => ({
        'data-message-id': message.id,
        'aria-selected': opened === message.id,
        onClick: (event: MouseEvent) => {
          // The id's button handles its own click; anywhere else on the row opens it too.
          if (!(event.target as Element).closest('button')) onOpen(message);
        },
      })}
    />
  );
}
