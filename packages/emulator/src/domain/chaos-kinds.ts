// No imports: the console's browser bundle and the CLI list the kinds with this module alone.

/**
 * What webhook chaos can do to a delivery (docs/testing-your-app.md#webhook-chaos). Each runs with
 * the delivery's first attempt: `duplicate` sends a second, identical copy after it;
 * `out_of_order` and `delayed` hold the delivery back; the four forged kinds send, before it, a
 * copy a right receiver refuses with a 4xx.
 */
export const CHAOS_KINDS = [
  'duplicate',
  'out_of_order',
  'delayed',
  'stale_timestamp',
  'tampered_body',
  'wrong_secret',
  'other_event_signature',
] as const;

/** One of {@link CHAOS_KINDS}. */
export type ChaosKind = (typeof CHAOS_KINDS)[number];
