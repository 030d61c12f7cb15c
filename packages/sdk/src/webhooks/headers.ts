/** Header names of every webhook delivery (DESIGN §2: the brand replaces spec's `Service-`). */
export const WEBHOOK_HEADERS = {
  id: 'parley-event-id',
  timestamp: 'parley-timestamp',
  signature: 'parley-signature',
} as const;
