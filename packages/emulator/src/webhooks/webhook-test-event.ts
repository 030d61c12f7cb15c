import type { WebhookTestEvent } from '@parley/sdk';
import { buildEvent } from '../domain/event-routing';

/** The fixed sentence of every `webhook.test` event's `data.message` (DESIGN §2). */
export const WEBHOOK_TEST_MESSAGE = 'This is a test event from Parley: your endpoint received it.';

/**
 * A `webhook.test` envelope created at `now` (ms), with the `livemode` of the endpoint's
 * application, as every event of that application carries (a receiver may route on it).
 */
export function buildWebhookTestEvent(now: number, livemode: boolean): WebhookTestEvent {
  return buildEvent('webhook.test', { message: WEBHOOK_TEST_MESSAGE }, now, livemode);
}
