import { randomBytes } from 'node:crypto';
import { API_VERSION, type WebhookTestEvent } from '@parley/sdk';

/** The fixed sentence of every `webhook.test` event's `data.message` (DESIGN §2). */
export const WEBHOOK_TEST_MESSAGE = 'This is a test event from Parley: your endpoint received it.';

/** A new event id: `evt_` + 32 lowercase hex (DESIGN §2). */
export function newEventId(): string {
  return `evt_${randomBytes(16).toString('hex')}`;
}

/** A `webhook.test` envelope created at `now` (ms). Test events are synthetic, so never live (spec 6.1). */
export function buildWebhookTestEvent(now: number): WebhookTestEvent {
  return {
    api_version: API_VERSION,
    created_at: new Date(now).toISOString(),
    data: { message: WEBHOOK_TEST_MESSAGE },
    id: newEventId(),
    livemode: false,
    type: 'webhook.test',
  };
}
