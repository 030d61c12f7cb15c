import type { MessageStatus } from '../wire/message';

// An outbound message only moves forward (spec 3.2); `failed` ranks last because it is final:
// nothing that arrives after it is newer. A Map, since a status is outside input and an object
// would rank `toString` or `__proto__` by what it inherits.
const RANK = new Map<string, number>([
  ['queued', 1],
  ['sent', 2],
  ['delivered', 3],
  ['read', 4],
  ['failed', 5],
]);

/**
 * True when `status` is not newer than `recorded` (older, or the same: a duplicate for ordering).
 * A status outside the outbound order (`received`, or one added later) is never stale.
 */
export function isStaleStatus(recorded: MessageStatus | undefined, status: MessageStatus): boolean {
  const rank = RANK.get(status);
  const recordedRank = recorded === undefined ? undefined : RANK.get(recorded);
  return rank !== undefined && recordedRank !== undefined && rank <= recordedRank;
}

/** Whether `status` takes part in the order, and so is worth recording. */
export function isOrderedStatus(status: MessageStatus): boolean {
  return RANK.has(status);
}
