import type { MessageStatus } from '../wire/message';

// An outbound message only moves forward (spec 3.2); `failed` ranks last because it is final:
// nothing that arrives after it is newer.
const RANK: Partial<Record<MessageStatus, number>> = { queued: 1, sent: 2, delivered: 3, read: 4, failed: 5 };

/**
 * True when `status` is not newer than `recorded` (older, or the same: a duplicate for ordering).
 * A status outside the outbound order (`received`, or one added later) is never stale.
 */
export function isStaleStatus(recorded: MessageStatus | undefined, status: MessageStatus): boolean {
  // Comparisons with undefined are false, so an unknown rank on either side means "not stale".
  return RANK[status]! <= RANK[recorded!]!;
}

/** Whether `status` takes part in the order, and so is worth recording. */
export function isOrderedStatus(status: MessageStatus): boolean {
  // Not `in`: inherited names such as `toString` are in every object.
  return RANK[status]! > 0;
}
