import type { Message } from '@parley/sdk';

/** What differs between inbound messages: everything else is fixed by spec 2.1 for `received`. */
export interface InboundMessageInput {
  id: string;
  connection_id: string;
  from: string;
  text: string;
  timestamp: string;
  livemode: boolean;
}

/** A customer's text to a connection, as `message.received` carries it (status `received`). */
export function inboundMessage(input: InboundMessageInput): Message {
  return {
    id: input.id,
    object: 'message',
    direction: 'inbound',
    connection_id: input.connection_id,
    to: null,
    from: input.from,
    type: 'text',
    text: input.text,
    template: null,
    status: 'received',
    error: null,
    client_reference: null,
    created_at: input.timestamp,
    updated_at: input.timestamp,
    livemode: input.livemode,
  };
}
