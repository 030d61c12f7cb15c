import { type Connection, characterCount, isPhoneNumber, MAX_TEXT_LENGTH } from '@parley/sdk';
import { formatTimestamp, newId } from './ids';
import { inboundMessage } from './inbound-message';
import { asObject, invalid } from './input-checks';
import type { ApplicationRecord, ConnectionRecord, MessageRecord } from './records';

/** How long an inbound message lets the business answer with free text (DESIGN §4). */
export const MESSAGING_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Where a sender's window is kept: per connection and customer number. */
export function windowSlot(connectionId: string, customer: string): string {
  return `${connectionId}\n${customer}`;
}

/** Whether a customer wrote to this connection within the last 24 h. */
export function insideWindow(
  windows: Readonly<Record<string, number>>,
  connectionId: string,
  customer: string,
  now: number,
): boolean {
  const openedAt = windows[windowSlot(connectionId, customer)];
  return openedAt !== undefined && now - openedAt < MESSAGING_WINDOW_MS;
}

/** A simulated business number of a live application (`POST /_emulator/applications/{id}/connections`). */
export function createLiveConnection(app: ApplicationRecord, input: unknown, now: number): ConnectionRecord {
  if (app.environment !== 'live') {
    invalid(
      'application_id',
      'sandbox_application',
      'Sandbox applications have the two fixed sandbox connections; add connections to live applications.',
    );
  }
  const body = asObject(input);
  if (!isPhoneNumber(body.phone_number)) {
    invalid('phone_number', 'invalid_format', 'phone_number must be "+" followed by 8 to 15 digits.');
  }
  const name = body.name ?? body.phone_number;
  if (typeof name !== 'string' || name.length === 0 || name.length > 200) {
    invalid('name', 'invalid_type', 'name must be a string of 1 to 200 characters.');
  }
  return {
    object: 'connection',
    id: newId(),
    status: 'active',
    phone_number: body.phone_number,
    name,
    quality_rating: 'GREEN',
    waba_id: `2${app.workspace_id
      .replaceAll(/[^0-9]/g, '')
      .padEnd(14, '0')
      .slice(0, 14)}`,
    livemode: true,
    created_at: formatTimestamp(now),
    application_id: app.id,
  };
}

/** A simulated connection as the API shows it: without the emulator's own fields. */
export function connectionView(record: ConnectionRecord): Connection {
  const { application_id: _, templates: __, ...connection } = record;
  return connection;
}

/**
 * A customer's message as the inbound route and the conversation composer take it: `from` a phone
 * number and `text` of 1 to 4096 characters, each refused under its own field name.
 */
export function checkCustomerText(
  body: Record<string, unknown>,
): asserts body is Record<string, unknown> & { from: string; text: string } {
  if (!isPhoneNumber(body.from)) {
    invalid('from', 'invalid_format', 'from must be "+" followed by 8 to 15 digits.');
  }
  if (
    typeof body.text !== 'string' ||
    body.text.length === 0 ||
    characterCount(body.text) > MAX_TEXT_LENGTH
  ) {
    invalid('text', 'invalid_type', 'text must be a string of 1 to 4096 characters.');
  }
}

/** An inbound message from a customer (`POST /_emulator/connections/{id}/inbound`). */
export function createInboundMessage(
  connection: ConnectionRecord,
  app: ApplicationRecord,
  input: unknown,
  now: number,
): MessageRecord {
  const body = asObject(input);
  checkCustomerText(body);
  const timestamp = formatTimestamp(now);
  const message = inboundMessage({
    id: newId(),
    connection_id: connection.id,
    from: body.from,
    text: body.text,
    timestamp,
    livemode: true,
  });
  return { message, application_id: app.id, workspace_id: app.workspace_id, accepted_at: now, announced: 0 };
}
