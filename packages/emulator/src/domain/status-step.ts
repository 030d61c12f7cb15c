import type { MessageError, OutboundMessageStatus } from '@parley/sdk';

// Its own file: the lifecycle asks the magic recipients for their steps, and both need the type,
// so neither may hold it without the two importing each other.

/** One scheduled status change: the status reached at `age` ms after acceptance. */
export interface StatusStep {
  status: OutboundMessageStatus;
  age: number;
  /** The message error a `failed` step brings (a magic recipient's late failure). */
  error?: MessageError;
}
