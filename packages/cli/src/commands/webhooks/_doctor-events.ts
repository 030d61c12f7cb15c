import { API_VERSION, type Message, type MessageStatus, type WebhookEvent } from '@parley/sdk';

// The sandbox's active connection and its synthetic customer (docs/emulator.md): recognisable
// test data, never a real number.
const CONNECTION_ID = '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51';
const CUSTOMER = '+15550100999';

/** A fresh event id: `evt_` + 32 lowercase hex, so every run's events are new to the receiver. */
export function newEventId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return `evt_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** A `whsec_` secret nobody holds: what a wrong or a rotated-away secret looks like. */
export function strangerSecret(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('')}`;
}

function envelope<Event extends WebhookEvent>(type: Event['type'], data: Event['data']): Event {
  return {
    api_version: API_VERSION,
    created_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    data,
    id: newEventId(),
    livemode: false,
    type,
  } as Event;
}

/** A customer's text, as `message.received` carries it. */
export function receivedEvent(text = 'Hello from parley webhooks doctor'): WebhookEvent {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const message: Message = {
    id: globalThis.crypto.randomUUID(),
    object: 'message',
    direction: 'inbound',
    connection_id: CONNECTION_ID,
    to: null,
    from: CUSTOMER,
    type: 'text',
    text,
    template: null,
    status: 'received',
    error: null,
    client_reference: null,
    created_at: now,
    updated_at: now,
    livemode: false,
  };
  return envelope('message.received', { message });
}

/** A `message.status_updated` of one outbound message, at `status`. */
export function statusEvent(messageId: string, status: MessageStatus): WebhookEvent {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const message: Message = {
    id: messageId,
    object: 'message',
    direction: 'outbound',
    connection_id: CONNECTION_ID,
    to: CUSTOMER,
    from: null,
    type: 'template',
    text: null,
    template: { name: 'hello_world', language: 'en' },
    status,
    error: null,
    client_reference: null,
    created_at: now,
    updated_at: now,
    livemode: false,
  };
  return envelope('message.status_updated', { message });
}
