/** Header names of every webhook delivery (DESIGN §2: the brand replaces spec's `Service-`). */
export const WEBHOOK_HEADERS = {
  id: 'parley-event-id',
  timestamp: 'parley-timestamp',
  signature: 'parley-signature',
} as const;

/**
 * Response header a receiver may send to say what it did with a verified delivery, one of
 * {@link WebhookOutcome}. `createWebhookHandler` always sends it; `parley webhooks doctor` reads it
 * to tell a deduplicated retry or a dropped stale status from one processed again, which the
 * answer's status alone cannot show (all are 2xx).
 */
export const WEBHOOK_OUTCOME_HEADER = 'parley-webhook-outcome';

/**
 * What a receiver did with a verified delivery: ran its handler (`processed`), skipped an event id
 * already processed (`duplicate`), skipped a status older than one already processed for its
 * message (`stale_status`), or had no handler for the type (`unhandled`).
 */
export type WebhookOutcome = 'processed' | 'duplicate' | 'stale_status' | 'unhandled';
