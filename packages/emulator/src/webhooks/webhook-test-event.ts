import type { WebhookTestEvent } from '@parley/sdk';
import { buildEvent } from '../domain/event-routing';

/** The fixed sentence of every `webhook.test` event's `data.message` (DESIGN §2). */
export const WEBHOOK_TEST_MESSAGE = 'This is a test event from Parley: your endpoint received it.';

/** A `webhook.test` envelope created at `now` (ms). Test events are synthetic, so never live (spec 6.1). */
export function buildWebhookTestEvent(now: number): WebhookTestEvent {
  return buildEvent('webhook.test', { message: WEBHOOK_TEST_MESSAGE }, now, false);
}
