import type { ListEnvelope } from '@parley/sdk';
import { DomainError } from '../domain/domain-error';
import { type PageQuery, parseLimit } from '../domain/list-page';
import type { ActivityFeed, ActivityItem } from './activity-feed';
import type { ActivityQuery } from './control-types';

/**
 * A page of the kept activity items, newest first (`GET /_emulator/activity` and
 * `control.listActivity`), filtered by `applicationId`, `type` (an item kind such as `request`, or
 * an event type such as `message.status_updated`) and `status` (`delivered`, `404`, or a class:
 * `2xx`, `4xx`, `5xx`). A filter given empty matches nothing, as the query parameter does. The
 * cursor is the seq to continue below, so a page does not shift when new items arrive. Each item
 * is a copy, secrets masked.
 */
export function activityPage(
  feed: ActivityFeed,
  query: Omit<ActivityQuery, 'limit'> & Pick<PageQuery, 'limit'> = {},
): ListEnvelope<ActivityItem> {
  const limit = parseLimit(query.limit);
  const applicationId = filterOf(query.applicationId, 'application_id');
  const type = filterOf(query.type, 'type');
  const status = filterOf(query.status, 'status');
  const { cursor } = query;
  const below = cursor == null ? Number.POSITIVE_INFINITY : cursorSeq(cursor);
  const data: ActivityItem[] = [];
  let nextCursor: string | null = null;
  for (const entry of feed.newestFirst()) {
    const { item } = entry;
    if (item.seq >= below) continue;
    if (applicationId !== undefined && !item.application_ids.includes(applicationId)) continue;
    if (type !== undefined && item.kind !== type && !('type' in item && item.type === type)) continue;
    if (status !== undefined && !statusMatches(item, status)) continue;
    if (data.length === limit) {
      nextCursor = Buffer.from(`s:${item.seq + 1}`).toString('base64url');
      break;
    }
    data.push(JSON.parse(feed.json(entry)) as ActivityItem);
  }
  return { object: 'list', data, has_more: nextCursor !== null, next_cursor: nextCursor };
}

/** A filter as given; one that is no string (an in-process caller's) is refused naming its parameter. */
function filterOf(value: unknown, field: string): string | undefined {
  if (value == null) return undefined;
  if (typeof value === 'string') return value;
  throw new DomainError('validation_error', `${field} must be a string.`, { field, reason: 'invalid_type' });
}

function statusMatches(item: ActivityItem, wanted: string): boolean {
  if (!('status' in item)) return false;
  const status = String(item.status);
  return /^[1-5]xx$/.test(wanted)
    ? typeof item.status === 'number' && status[0] === wanted[0]
    : status === wanted;
}

function cursorSeq(cursor: unknown): number {
  const match =
    typeof cursor === 'string' && /^s:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) {
    throw new DomainError('validation_error', 'cursor is not one this API returned.', {
      field: 'cursor',
      reason: 'invalid_value',
    });
  }
  return Number(match[1]);
}
