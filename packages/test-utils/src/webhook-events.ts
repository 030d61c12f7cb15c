// Webhook events and their signed deliveries, as Parley sends them.

import { canonicalJson, type Message, type MessageStatus, signWebhook, type WebhookEvent } from '@parley/sdk';

/** The signing secret of test endpoints and receivers. */
export const TEST_SECRET = 'whsec_4eC39HqLyjWDarjtT1zdp7dc4eC39HqL';
/** The message id of {@link statusEvent} unless given. */
export const MESSAGE_ID = '0b6f5c1e-2d3a-4b8c-9e7f-1a2b3c4d5e6f';

let sequence = 0;

/** A fresh `evt_` id, unique within the test run. */
export function eventId(): string {
  return `evt_${(++sequence).toString(16).padStart(32, '0')}`;
}

/** A `message.status_updated` event of message `messageId` reaching `status`. */
export function statusEvent(status: MessageStatus, messageId = MESSAGE_ID, id = eventId()): WebhookEvent {
  const message: Message = {
    id: messageId,
    object: 'message',
    direction: 'outbound',
    connection_id: '7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51',
    to: '+33612345678',
    from: null,
    type: 'template',
    text: null,
    template: { name: 'hello_world', language: 'en' },
    status,
    error: null,
    client_reference: null,
    created_at: '2026-10-14T09:30:00Z',
    updated_at: '2026-10-14T09:30:05Z',
    livemode: false,
  };
  return webhookEvent({ id, type: 'message.status_updated', data: { message } });
}

/** A `webhook.test` event. */
export function testEvent(id = eventId()): WebhookEvent {
  return webhookEvent({ id, type: 'webhook.test', data: { message: 'This is a test event from Parley.' } });
}

/**
 * The envelope of an event (spec 6.2) around `id`, `type` and `data`; `created_at` and
 * `livemode` may be given too (default a fixed time and sandbox).
 */
export function webhookEvent(
  event: Pick<WebhookEvent, 'id' | 'type' | 'data'> & Partial<Pick<WebhookEvent, 'created_at' | 'livemode'>>,
): WebhookEvent {
  return {
    api_version: '2026-10-14',
    created_at: '2026-10-14T09:30:05Z',
    livemode: false,
    ...event,
  } as WebhookEvent;
}

/** The body and signed headers of a delivery of `event`, timestamped now. */
export async function signedDelivery(
  event: WebhookEvent,
  secret: string | readonly string[] = TEST_SECRET,
): Promise<{ body: string; headers: Record<string, string> }> {
  const body = canonicalJson(event);
  const signed = await signWebhook({ payload: body, secret, id: event.id });
  return {
    body,
    headers: { 'content-type': 'application/json', 'user-agent': 'Parley-Webhooks/1.0', ...signed },
  };
}

/** A web-standard POST delivering `event`, signed with `secret`. */
export async function deliveryRequest(
  event: WebhookEvent,
  secret?: string | readonly string[],
): Promise<Request> {
  const { body, headers } = await signedDelivery(event, secret);
  return new Request('http://127.0.0.1/webhooks/parley', { method: 'POST', headers, body });
}
