import { DomainError } from './domain-error';

/** Accepted sends a live workspace may make per UTC day (spec 8.3). */
export const DAILY_SEND_LIMIT = 1000;

/** Counts by workspace id. */
export type DailySends = Record<string, { day: string; count: number }>;

/** The UTC day of `now`, `YYYY-MM-DD`. */
export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** Accepted sends of a workspace on the UTC day of `now`. */
export function sendsToday(state: DailySends, workspaceId: string, now: number): number {
  const entry = state[workspaceId];
  return entry && entry.day === utcDay(now) ? entry.count : 0;
}

/** Throws 429 `daily_send_limit_reached` with `retryAfterSeconds` until the next UTC midnight. */
export function assertUnderDailyCap(state: DailySends, workspaceId: string, now: number): void {
  if (sendsToday(state, workspaceId, now) < DAILY_SEND_LIMIT) return;
  const nextMidnight = Math.floor(now / 86_400_000 + 1) * 86_400_000;
  const retryAfter = Math.max(1, Math.ceil((nextMidnight - now) / 1000));
  throw new DomainError(
    'daily_send_limit_reached',
    `This live workspace has sent ${DAILY_SEND_LIMIT} messages today (UTC); sending resumes at the next UTC midnight.`,
    { limit: DAILY_SEND_LIMIT, retry_after: retryAfter },
  );
}

/**
 * The workspace's count once this send is accepted: computed, not stored, so the caller can make
 * it durable first and store it only then.
 */
export function sendsAfterThisOne(
  state: DailySends,
  workspaceId: string,
  now: number,
): { day: string; count: number } {
  const day = utcDay(now);
  const entry = state[workspaceId];
  return { day, count: entry && entry.day === day ? entry.count + 1 : 1 };
}
