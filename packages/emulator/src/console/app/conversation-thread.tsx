import { useState } from 'preact/hooks';
import type { ConversationItem, ConversationView } from '../../core/control-types';
import { contentOf, remainingText, ticksOf } from './_conversation-format';
import { useConsole } from './console-context';
import { control } from './control';
import type { Application } from './control-types';
import { LoadError } from './empty';
import { when } from './format';
import { useLiveData } from './live-data';

/**
 * One conversation: the customer's messages and the app's replies as they happen (the activity
 * stream reloads it: messages, events, the clock moving statuses on), the rules that bite, and a
 * composer to write as the customer.
 */
export function ConversationThread({
  app,
  connectionId,
  number,
}: {
  app: Application;
  connectionId: string;
  number: string;
}) {
  const { act } = useConsole();
  const [text, setText] = useState('');
  const thread = useLiveData(
    () => control.getConversation(app.id, { connectionId, number }),
    [app.id, connectionId, number],
    ['message', 'event', 'clock', 'control', 'reset'],
  );
  const view = thread.data;
  const closedReason =
    view && view.connection.status !== 'active'
      ? app.environment === 'sandbox'
        ? 'This sandbox connection is disconnected: synthetic messages arrive on the active one.'
        : null
      : null;
  const write = (event: Event) => {
    event.preventDefault();
    const typed = text;
    void act(async () => {
      const sent = await control.messageAsCustomer(app.id, {
        connection_id: connectionId,
        from: number,
        text: typed,
      });
      setText('');
      return `${number} wrote: message ${sent.id} received.`;
    });
  };
  return (
    <section class="conversation" aria-labelledby="conversation-title">
      <h3 id="conversation-title">
        <span class="mono">{number}</span> on{' '}
        {view ? `${view.connection.name} (${view.connection.phone_number})` : '…'}
      </h3>
      <LoadError error={thread.error} />
      {view && <ThreadRules view={view} />}
      {view && <ReadAction app={app} view={view} />}
      {view && (
        <ol class="thread" aria-label="Messages of the conversation, oldest first">
          {view.earlier > 0 && <li class="muted">{view.earlier} earlier messages not shown.</li>}
          {view.items.length === 0 && <li class="muted">No message yet: write as the customer below.</li>}
          {view.items.map((item) => (
            <ThreadItem key={item.message.id} item={item} />
          ))}
        </ol>
      )}
      <form class="composer" onSubmit={write}>
        <label for="customer-text">Message as the customer</label>
        <div class="row">
          <input
            id="customer-text"
            class="grow"
            type="text"
            required
            maxLength={4096}
            value={text}
            disabled={closedReason !== null}
            onInput={(event) => setText(event.currentTarget.value)}
          />
          <button type="submit" class="primary" disabled={closedReason !== null}>
            Send as customer
          </button>
        </div>
        {closedReason && <p class="muted">{closedReason}</p>}
      </form>
    </section>
  );
}

function ThreadRules({ view }: { view: ConversationView }) {
  return (
    <dl class="thread-rules">
      <dt>Clock</dt>
      <dd>{when(view.now)}</dd>
      {view.connection.status !== 'active' && (
        <>
          <dt>Connection</dt>
          <dd class="field-error">
            disconnected: the app's sends through it are refused (409 connection_inactive)
          </dd>
        </>
      )}
      {view.window && (
        <>
          <dt>24 h window</dt>
          <dd data-window={view.window.open ? 'open' : 'closed'}>
            {view.window.open
              ? `open, ${remainingText(view.window.remaining_ms)} left (until ${when(view.window.expires_at)})`
              : 'closed: a free-text reply fails with outside_messaging_window; a template still goes'}
          </dd>
        </>
      )}
      {view.daily_cap && (
        <>
          <dt>Daily cap</dt>
          <dd>
            {view.daily_cap.sent_today} of {view.daily_cap.limit} sends today (UTC)
          </dd>
        </>
      )}
      <dt>Read</dt>
      <dd>{view.read_rule}</dd>
    </dl>
  );
}

function ThreadItem({ item }: { item: ConversationItem }) {
  const { message } = item;
  const last = item.history.at(-1);
  return (
    <li class={`bubble ${message.direction}`} data-status={message.status} data-message-id={message.id}>
      <p class="bubble-text">
        {message.template && <span class="muted">{message.template.name}: </span>}
        {contentOf(item)}
      </p>
      <p class="bubble-meta">
        <time dateTime={last?.at ?? message.created_at}>{when(message.created_at)}</time>{' '}
        {message.direction === 'outbound' && (
          <span class={`ticks ${message.status}`} title={statusTitle(item)}>
            {ticksOf(message.status)} {message.status}
          </span>
        )}
      </p>
      {message.error && (
        <p class="field-error">
          {message.error.code}: {message.error.message}
        </p>
      )}
    </li>
  );
}

function statusTitle(item: ConversationItem): string {
  return item.history.map((step) => `${step.status} ${when(step.at)}`).join(', ');
}

/** The magic sandbox number that reads what it gets (docs/emulator.md#magic-recipients). */
const READING_NUMBER = '+15550101002';
/** How long after acceptance a message that is read is read (the documented schedule). */
const READ_AFTER_MS = 10_000;

/**
 * The customer reads the app's last message: the emulator reads on a schedule, so this moves the
 * application's clock (its workspace's own, or the global one) to that message's read step. Where
 * nothing is ever read (a sandbox number other than the magic one) the button is off and says why.
 */
function ReadAction({ app, view }: { app: Application; view: ConversationView }) {
  const { act } = useConsole();
  const reads = view.environment === 'live' || view.customer === READING_NUMBER;
  const last = view.items.filter((item) => item.message.direction === 'outbound').at(-1)?.message;
  const readable = reads && last !== undefined && last.status !== 'failed' && last.status !== 'read';
  // Timestamps are to the second; the extra second makes sure the step is passed.
  const waitMs = last
    ? Math.max(0, Date.parse(last.created_at) + READ_AFTER_MS + 1_000 - Date.parse(view.now))
    : 0;
  const read = () =>
    void act(async () => {
      const clock = await control.getWorkspaceClock(app.workspace_id);
      if (clock.own_clock) await control.advanceWorkspaceClock(app.workspace_id, waitMs);
      else await control.advanceClock(waitMs);
      return `The customer read the app's last message (clock advanced ${Math.ceil(waitMs / 1000)} s).`;
    });
  return (
    <p class="row">
      <button type="button" disabled={!readable} onClick={read} aria-describedby="read-why">
        Customer reads
      </button>
      <span id="read-why" class="muted">
        {!reads
          ? 'Sandbox messages are never read but by the magic number +15550101002.'
          : last === undefined
            ? 'No message from the app yet.'
            : last.status === 'read'
              ? "The app's last message is read."
              : last.status === 'failed'
                ? "The app's last message failed: there is nothing to read."
                : "Moves the clock to the read step of the app's last message."}
      </span>
    </p>
  );
}
