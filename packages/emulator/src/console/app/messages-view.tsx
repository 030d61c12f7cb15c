import { useState } from 'preact/hooks';
import { useConsole } from './console-context';
import { control } from './control';
import type { Application, Message } from './control-types';
import { Empty, LoadError } from './empty';
import { useLiveData } from './live-data';
import { MessageDetail } from './message-detail';
import { MessageTable } from './message-table';
import { Pager, usePages } from './pager';
import { SendMessageForm } from './send-message-form';

/**
 * Messages of the application, newest first, a page at a time, their status kept current; the
 * message opened (its id in the route) is shown whole beside them.
 */
export function MessagesView({ app }: { app: Application }) {
  const { route, navigate } = useConsole();
  const pages = usePages();
  // The message opened, as last seen: it stays shown when its page is left.
  const [opened, setOpened] = useState<Message | null>(null);
  const messages = useLiveData(
    () =>
      control.listMessages({
        applicationId: app.id,
        limit: 50,
        ...(pages.cursor === null ? {} : { cursor: pages.cursor }),
      }),
    [app.id, pages.cursor],
    ['message', 'reset'],
  );
  const listed = messages.data?.data.find((message) => message.id === route.message);
  const shown = listed ?? (opened?.id === route.message ? opened : null);
  const open = (message: Message) => {
    setOpened(message);
    navigate({ message: message.id });
  };
  return (
    <section id="messages" aria-labelledby="messages-title">
      <h2 id="messages-title">Messages</h2>
      <details class="send" open>
        <summary>Send a message</summary>
        <SendMessageForm app={app} />
      </details>
      <h3>Messages, newest first</h3>
      <LoadError error={messages.error} />
      <div class={shown ? 'split' : undefined}>
        <div>
          <div id="message-list" class="table-wrap">
            {messages.data &&
              (messages.data.data.length === 0 ? (
                <Empty>No message yet.</Empty>
              ) : (
                <MessageTable messages={messages.data.data} opened={shown?.id ?? null} onOpen={open} />
              ))}
          </div>
          {messages.data && <Pager pages={pages} label="Messages" nextCursor={messages.data.next_cursor} />}
        </div>
        {shown && <MessageDetail app={app} message={shown} onClose={() => navigate({ message: null })} />}
      </div>
    </section>
  );
}
